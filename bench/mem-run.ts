/**
 * `npm run -s build && node_modules/.bin/node dist/bench/mem-run.js`: where the product's peak RSS comes from
 * under the full bench's sequence (docs/benchmarks.md "seventh round, memory"). Starts this build's product
 * server (and, with BENCH_AB_BASELINE=<folder holding a dist/> or BENCH_AB_BASELINE_FLAGS / _ENV, a baseline; with
 * BENCH_MEM_FLOOR=1 the floor too) at once, as `npm run bench` starts its servers, then runs the bench's sequence:
 * one check request, a prime of BENCH_PRIME s at BENCH_CONNECTIONS, BENCH_ROUNDS rounds of REST then GraphQL
 * (warm-up and measured pass), one round at BENCH_HIGH_CONNECTIONS, the servers taking turns. A worker samples
 * every server's VmRSS every BENCH_MEM_SAMPLE_MS (20) by phase, and each server carries bench/mem-probe.js, which
 * logs V8's heap spaces, so the peak is split into V8's heap and the rest. BENCH_MEM_TRIALS (1) fresh sets of
 * servers in a row; each server's VmHWM per trial and their paired difference are printed.
 */
import 'reflect-metadata';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { freePort, startChild, type ChildServer } from './children.js';
import { envPairs, loadBenchConfig, productEnvironment, productNodeFlags } from './config.js';
import { openBenchDatabase } from './database.js';
import { measure, type LoadTarget } from './load.js';
import {
  describeHeapSummaries,
  describeHeldObjects,
  heapSnapshotOf,
  summariseHeapSnapshot,
  type HeapSummary,
} from './heap-summary.js';
import type { RssPoint, SamplerReport } from './mem-sampler.js';
import { scaleData, type ScaledData } from './scale-data.js';
import { GRAPHQL_USERS_DOCUMENT, graphqlUsersBody, itemFieldsOf, restUsersPath } from './targets.js';

const DIST = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const startedAt = Date.now();
const log = (message: string) =>
  console.log(`[mem ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);
const mib = (kib: number) => (kib / 1024).toFixed(1);

const config = loadBenchConfig();
const trials = Number(process.env.BENCH_MEM_TRIALS ?? 1);
const sampleMs = Number(process.env.BENCH_MEM_SAMPLE_MS ?? 20);
const baselineDir = process.env.BENCH_AB_BASELINE;
const baselineFlags = process.env.BENCH_AB_BASELINE_FLAGS;
const baselineEnv = process.env.BENCH_AB_BASELINE_ENV;
const withBaseline = Boolean(baselineDir || baselineFlags !== undefined || baselineEnv !== undefined);
const probeDir = path.join(config.dataDir, 'mem');
// BENCH_MEM_TRACE_GC=1: every server's `--trace-gc` lines into <data>/mem/<name>-<trial>.gc.
const traceGc = process.env.BENCH_MEM_TRACE_GC === '1';
// BENCH_MEM_SNAPSHOT=1: a heap snapshot of every server after the load (read after its VmHWM, so the snapshot's own
// memory is not in the peak), kept as <data>/mem/<name>-<trial>.heapsnapshot and summarised (bench/heap-summary.ts).
// BENCH_MEM_SNAPSHOT=load: also one of this build's server in the middle of its first measured REST pass: what
// is reachable while requests run (the objects a request holds, and anything held past its response). That
// snapshot's own memory lands in the peak, so VmHWM means nothing in this mode.
const snapshotDuringLoad = process.env.BENCH_MEM_SNAPSHOT === 'load';
const snapshot = process.env.BENCH_MEM_SNAPSHOT === '1' || snapshotDuringLoad;
rmSync(probeDir, { recursive: true, force: true });
mkdirSync(probeDir, { recursive: true });
const database = await openBenchDatabase(config, { onQuery: () => undefined, log });
const children: ChildServer[] = [];

interface Server {
  name: string;
  child: ChildServer;
  probeFile: string;
  targets: LoadTarget[];
}

/** The probe's line nearest before `at`: V8's resident heap by space and what else the process holds. */
function probeAt(file: string, at: number): string {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const names = lines[0].split(' ').slice(6);
  let best: number[] | undefined;
  for (const line of lines.slice(1)) {
    const values = line.split(' ').map(Number);
    if (values[0] > at + sampleMs) break;
    best = values;
  }
  if (!best) return 'no probe sample yet (start-up)';
  const spaces = best.slice(5);
  const heap = spaces.reduce((sum, value) => sum + value, 0);
  const parts = names
    .map((name, index) => [name.replace(/_space$/, ''), spaces[index]] as const)
    .filter(([, value]) => value >= 1024)
    .map(([name, value]) => `${name} ${mib(value)}`);
  return `probe ${at - best[0]} ms before: rss ${mib(best[1])}, V8 heap ${mib(heap)} (${parts.join(', ')}), external ${mib(best[2])} (array buffers ${mib(best[3])}), old space used ${mib(best[4])}`;
}

async function trial(number: number, data: ScaledData): Promise<Map<string, number>> {
  const usersPath = restUsersPath(data.hotTenantId, config.pageSize);
  const auth = { authorization: `Bearer ${data.apiKey}` };
  const probeEnv = (name: string) => ({
    BENCH_MEM_PROBE_FILE: path.join(probeDir, `${name}-${number}.log`),
    BENCH_MEM_PROBE_MS: String(sampleMs),
  });
  const probeArgs = ['--import', path.join(DIST, 'bench', 'mem-probe.js')];
  const start = async (
    name: string,
    script: string,
    flags: string[],
    env: Record<string, string>,
  ): Promise<Server> => {
    const port = await freePort();
    const child = await startChild({
      name,
      script,
      port,
      env: { DATABASE_URL: database.url, PORT: String(port), ...env, ...probeEnv(name) },
      nodeArgs: [
        ...flags,
        ...probeArgs,
        ...(traceGc ? ['--trace-gc'] : []),
        ...(snapshot ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${probeDir}`] : []),
      ],
      readyPath: '/health/ready',
      outputFile: traceGc ? path.join(probeDir, `${name}-${number}.gc`) : undefined,
    });
    children.push(child);
    const base = child.baseUrl;
    const targets: LoadTarget[] =
      name === 'floor'
        ? [{ name: 'floor', url: base + usersPath, method: 'GET' }]
        : [
            { name: 'rest', url: base + usersPath, method: 'GET', headers: auth },
            {
              name: 'graphql',
              url: `${base}/graphql`,
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: graphqlUsersBody(data.hotTenantId, config.pageSize),
            },
          ];
    return { name, child, probeFile: probeEnv(name).BENCH_MEM_PROBE_FILE, targets };
  };
  const productEnv = { SEED_DEMO: 'false', RUN_WORKER: 'false', LOG_LEVEL: 'warn' };
  const starts: Array<Promise<Server>> = [
    start('this', path.join(DIST, 'src', 'main.js'), productNodeFlags(), {
      ...productEnv,
      ...productEnvironment(),
    }),
  ];
  if (withBaseline)
    starts.push(
      start(
        'baseline',
        path.join(baselineDir ? path.resolve(baselineDir, 'dist') : DIST, 'src', 'main.js'),
        baselineFlags === undefined ? productNodeFlags() : baselineFlags.split(/\s+/).filter(Boolean),
        { ...productEnv, ...(baselineEnv === undefined ? productEnvironment() : envPairs(baselineEnv)) },
      ),
    );
  if (process.env.BENCH_MEM_FLOOR === '1')
    starts.push(
      start('floor', path.join(DIST, 'bench', 'raw-http-server.js'), [], {
        BENCH_ORGANIZATION_ID: data.scope.organizationId,
        BENCH_ENVIRONMENT: data.scope.environment,
        BENCH_USER_FIELDS: itemFieldsOf(GRAPHQL_USERS_DOCUMENT).join(','),
      }),
    );
  // Sampling begins once the processes exist; start-up before the first sample is still in VmHWM.
  const servers = await Promise.all(starts);
  const sampler = new Worker(new URL('./mem-sampler.js', import.meta.url), {
    workerData: { pids: servers.map((server) => server.child.pid), intervalMs: sampleMs },
  });
  const phases: Array<[string, number]> = [['start-up', startedAt]];
  const phase = (name: string) => {
    phases.push([name, Date.now()]);
    sampler.postMessage({ phase: name });
  };
  phase('check');
  for (const server of servers)
    for (const target of server.targets) {
      const response = await fetch(target.url, {
        method: target.method,
        headers: target.headers,
        body: target.body,
      });
      if (response.status !== 200) throw new Error(`${server.name} ${target.name}: ${response.status}`);
    }
  const settings = {
    connections: config.connections,
    durationSeconds: config.durationSeconds,
    warmupSeconds: config.warmupSeconds,
  };
  const cpuOf = new Map<string, number[]>();
  // Each server's targets back to back, the servers taking turns going first (as ab-run does).
  const pass = async (label: string, connections: number, order: Server[], prime = false) => {
    for (const server of order)
      for (const target of server.targets) {
        phase(`${label} ${server.name} ${target.name}`);
        const during =
          snapshotDuringLoad &&
          server.name === 'this' &&
          target.name === 'rest' &&
          label.startsWith('r1@') &&
          !prime
            ? new Promise<void>((resolve) =>
                setTimeout(resolve, (config.warmupSeconds + config.durationSeconds / 2) * 1000),
              ).then(() =>
                heapSnapshotOf(
                  server.child.pid,
                  probeDir,
                  path.join(probeDir, `${server.name}-${number}-load.heapsnapshot`),
                ),
              )
            : undefined;
        const result = await measure(
          target,
          prime
            ? { connections, warmupSeconds: 0, durationSeconds: config.primeSeconds }
            : { ...settings, connections },
          () => server.child.cpuMs(),
        );
        if (during) {
          log(`  ${server.name} during ${label} ${target.name} (reachable objects, by constructor):`);
          for (const line of describeHeldObjects(summariseHeapSnapshot(await during))) log(`    ${line}`);
        }
        const cpu = result.serverCpuMsPerRequest ?? NaN;
        if (!prime) cpuOf.set(server.name, [...(cpuOf.get(server.name) ?? []), cpu]);
        log(
          `  ${label} ${server.name} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, CPU ${cpu} ms/req, p99 ${result.latencyP99Ms} ms`,
        );
      }
  };
  const turn = (round: number) => (round % 2 === 1 ? servers : [...servers].reverse());
  if (config.primeSeconds > 0) await pass('prime', config.connections, servers, true);
  for (let round = 1; round <= config.rounds; round++)
    await pass(`r${round}@${config.connections}`, config.connections, turn(round));
  await pass(`r1@${config.highConnections}`, config.highConnections, turn(number + 1));
  phase('end');
  const report = await new Promise<SamplerReport>((resolve) => {
    sampler.once('message', resolve);
    sampler.postMessage({ stop: true });
  });
  await sampler.terminate();
  const hwm = new Map<string, number>();
  for (const server of servers) {
    const peak = server.child.peakRssKiB() ?? 0;
    writeFileSync(
      path.join(probeDir, `${server.name}-${number}.smaps`),
      report.smapsAtPeak[server.child.pid] ?? '',
    );
    hwm.set(server.name, peak);
    const byPhase = report.peaks[server.child.pid] ?? [];
    const [topPhase, top] = byPhase.reduce<[string, RssPoint]>(
      (best, entry) => (entry[1].rss > best[1].rss ? entry : best),
      ['none', { rss: 0, anon: 0, file: 0, at: 0 }],
    );
    log(
      `trial ${number} ${server.name}: VmHWM ${mib(peak)} MiB; highest sample ${mib(top.rss)} MiB in "${topPhase}" ` +
        `(anon ${mib(top.anon)}, file ${mib(top.file)}); ${probeAt(server.probeFile, top.at)}`,
    );
    const cpu = cpuOf.get(server.name) ?? [];
    const base = cpuOf.get(servers[0].name) ?? [];
    log(
      `  CPU ms/req per measured pass: ${cpu.join(' ')}` +
        (server === servers[0]
          ? ''
          : `; ${servers[0].name} ÷ this server per pass: ${base.map((value, index) => (value / cpu[index]).toFixed(2)).join(' ')}`),
    );
    log(`  by phase: ${byPhase.map(([name, point]) => `${name} ${mib(point.rss)}`).join(' | ')}`);
  }
  if (snapshot) {
    const summaries = new Map<string, HeapSummary>();
    for (const server of servers) {
      const file = await heapSnapshotOf(
        server.child.pid,
        probeDir,
        path.join(probeDir, `${server.name}-${number}.heapsnapshot`),
      );
      summaries.set(server.name, summariseHeapSnapshot(file));
    }
    const [first, second] = [
      summaries.get('baseline') ?? summaries.get('this')!,
      summaries.get('baseline') && summaries.get('this'),
    ];
    log(`heap after load${second ? ', baseline → this' : ''}:`);
    for (const line of describeHeapSummaries(first, second)) log(`  ${line}`);
  }
  await Promise.all(servers.map((server) => server.child.stop()));
  return hwm;
}

try {
  const data = await scaleData(config, database.orm, database.pool, () => undefined);
  const results: Array<Map<string, number>> = [];
  for (let number = 1; number <= trials; number++) results.push(await trial(number, data));
  for (const name of results[0].keys())
    console.log(`VmHWM ${name}: ${results.map((result) => mib(result.get(name)!)).join(' ')} MiB`);
  if (withBaseline)
    console.log(
      `this − baseline per trial: ${results.map((result) => mib(result.get('this')! - result.get('baseline')!)).join(' ')} MiB`,
    );
} finally {
  await Promise.allSettled(children.map((child) => child.stop()));
  await database.close();
}
process.exit(0);
