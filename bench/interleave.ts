import { measure, type LoadResult, type LoadSettings, type LoadTarget } from './load.js';

/** The servers the bench drives, in the order every round visits them. */
export const TARGET_KEYS = ['floor', 'express', 'rest', 'graphql'] as const;
export type TargetKey = (typeof TARGET_KEYS)[number];

export interface MeasuredTarget {
  target: LoadTarget;
  /** CPU time of the serving process so far (ms), to report CPU per request. */
  cpuMs: () => number | null;
}

/**
 * Runs the targets interleaved, A B C D A B C D …, `rounds` times, and combines each target's passes: the other
 * seven engineers' builds and tests on the same two cores come and go, and interleaving spreads that drift over
 * every target instead of penalising whichever ran during a busy minute. req/s, p50 and CPU/request are the mean
 * of the rounds, p99 the worst round, requests and failures the sum.
 */
export async function measureInterleaved(
  targets: Record<TargetKey, MeasuredTarget>,
  settings: LoadSettings,
  rounds: number,
  log: (message: string) => void,
): Promise<Record<TargetKey, LoadResult>> {
  const passes = new Map<TargetKey, LoadResult[]>(TARGET_KEYS.map((key) => [key, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const key of TARGET_KEYS) {
      const { target, cpuMs } = targets[key];
      const result = await measure(target, settings, cpuMs);
      log(
        `  ${settings.connections} conns, round ${round}/${rounds}, ${key}: ` +
          `${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99Ms} ms`,
      );
      passes.get(key)!.push(result);
    }
  }
  return Object.fromEntries(TARGET_KEYS.map((key) => [key, combine(key, passes.get(key)!)])) as Record<
    TargetKey,
    LoadResult
  >;
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
