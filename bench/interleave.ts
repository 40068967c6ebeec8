import { measure, type LoadResult, type LoadSettings, type LoadTarget } from './load.js';

/** The servers the bench drives, in the order every round visits them. */
export const TARGET_KEYS = ['floor', 'express', 'rest', 'graphql', 'postgraphile'] as const;
export type TargetKey = (typeof TARGET_KEYS)[number];
/** PostGraphile 5 is measured when it could be installed and run (bench/postgraphile-target.ts); the rest always. */
export type OptionalTargetKey = 'postgraphile';
export type TargetsOf<T> = Record<Exclude<TargetKey, OptionalTargetKey>, T> &
  Partial<Record<OptionalTargetKey, T>>;

/** The keys present in `targets`, in the order of TARGET_KEYS. */
export function keysOf<T>(targets: TargetsOf<T>): TargetKey[] {
  return TARGET_KEYS.filter((key) => targets[key] !== undefined);
}

export interface MeasuredTarget {
  target: LoadTarget;
  /** CPU time of the serving process so far (ms), to report CPU per request. */
  cpuMs: () => number | null;
}

/**
 * Primes every target, then runs them interleaved, A B C D A B C D …, `rounds` times, and combines each target's passes: the other
 * seven engineers' builds and tests on the same two cores come and go, and interleaving spreads that drift over
 * every target instead of penalising whichever ran during a busy minute. req/s, p50 and CPU/request are the mean
 * of the rounds, p99 the worst round, requests and failures the sum.
 */
export async function measureInterleaved(
  targets: TargetsOf<MeasuredTarget>,
  settings: LoadSettings,
  rounds: number,
  log: (message: string) => void,
  /** Seconds of unmeasured load on every target before round 1 (0: none). */
  primeSeconds = 0,
): Promise<TargetsOf<LoadResult>> {
  const keys = keysOf(targets);
  const passes = new Map<TargetKey, LoadResult[]>(keys.map((key) => [key, []]));
  if (primeSeconds > 0) {
    // Unmeasured: the first pass of each freshly started server paid for its JIT warming up and PostgreSQL's cold
    // buffers (round 1's p99 ran 1.3–1.7× round 2's for the floor itself), which the 2 s warm-up of a pass did not
    // cover, and p99 is the worst round.
    for (const key of keys) {
      const { target, cpuMs } = targets[key]!;
      await measure(target, { ...settings, warmupSeconds: 0, durationSeconds: primeSeconds }, cpuMs);
    }
    log(`  ${settings.connections} conns, every target primed for ${primeSeconds} s (not measured)`);
  }
  for (let round = 1; round <= rounds; round++) {
    for (const key of keys) {
      const { target, cpuMs } = targets[key]!;
      const result = await measure(target, settings, cpuMs);
      log(
        `  ${settings.connections} conns, round ${round}/${rounds}, ${key}: ` +
          `${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99Ms} ms`,
      );
      passes.get(key)!.push(result);
    }
  }
  return Object.fromEntries(
    keys.map((key) => [key, combine(key, passes.get(key)!)]),
  ) as TargetsOf<LoadResult>;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function combine(name: string, results: LoadResult[]): LoadResult {
  const cpu = results.map((result) => result.serverCpuMsPerRequest);
  return {
    name,
    requestsPerSecond: Math.round(mean(results.map((result) => result.requestsPerSecond)) * 10) / 10,
    latencyP50Ms: Math.round(mean(results.map((result) => result.latencyP50Ms)) * 10) / 10,
    latencyP99Ms: Math.max(...results.map((result) => result.latencyP99Ms)),
    requests: results.reduce((sum, result) => sum + result.requests, 0),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
    serverCpuMsPerRequest: cpu.every((value) => value !== null)
      ? Math.round(mean(cpu as number[]) * 100) / 100
      : null,
  };
}
