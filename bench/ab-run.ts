/**
 * `npm run -s build && node_modules/.bin/node dist/bench/ab-run.js`: an interleaved A/B of the product's
 * per-request cost, for measuring one change on the shared machine (docs/benchmarks.md "Comparing two builds or
 * two settings"). Starts the floor (bare node:http + pg), this build's product server and, with
 * BENCH_AB_BASELINE=<folder holding a dist/>, another build's (or the same one with BENCH_AB_BASELINE_FLAGS /
 * BENCH_AB_BASELINE_ENV), on the same bench database; then drives REST and GraphQL through them interleaved and
 * prints each one's CPU per request and req/s as a ratio to the floor of the same round, each server's peak RSS,
 * and this build's CPU per request over the baseline's, paired per round. BENCH_AB_PROFILE=rest|graphql also
 * writes a CPU profile of this build's server during one more pass (`floor`: of the floor) and prints its top self times and GC pauses;
 * BENCH_AB_PROFILE=rest-heap|graphql-heap an allocation profile (bytes per request by package and function);
 * BENCH_AB_PROFILE=rest-gc|graphql-gc the collections of one pass from `--trace-gc`, by kind.
 * BENCH_AB_POSTGRAPHILE=1 adds PostGraphile 5's pass (bench/postgraphile-target.ts) after the GraphQL ones;
 * BENCH_AB_KINDS=graphql leaves the REST passes out; BENCH_AB_TIMELINE=1 loads bench/latency-probe.ts into the
 * product servers and PostGraphile and prints, per pass, where a request waited (time to its first statement,
 * SQL, after the last answer; event-loop delay and utilisation; GC pauses). Every pass also prints PostgreSQL's
 * CPU per request (its server processes').
 */
import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChild, type ChildServer } from './children.js';
import {
  envPairs,
  loadBenchConfig,
  productEnvironment,
  productNodeFlags,
  productServerEnv,
} from './config.js';
import { openBenchDatabase } from './database.js';
import { measure, type LoadResult, type LoadTarget } from './load.js';
import { allocationProfile } from './heap-profile.js';
import { summariseGcTrace } from './gc-trace.js';
import { gcPausesOf, summariseNewestProfile } from './profile.js';
import { scaleData } from './scale-data.js';
import { postgraphileBody, startPostGraphile } from './postgraphile-target.js';
import { readProbe, postgresCpuMs, probeArgs, startProbe } from './ab-timeline.js';
import { backendCpuMsBetween, snapshotBackends, type BackendSnapshot } from './pg-backends.js';
import { GRAPHQL_USERS_DOCUMENT, graphqlUsersBody, itemFieldsOf, restUsersPath } from './targets.js';

const DIST = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const startedAt = Date.now();
const log = (message: string) =>
  console.log(`[ab ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);

const config = loadBenchConfig();
const baseline = process.env.BENCH_AB_BASELINE;
const profiled = process.env.BENCH_AB_PROFILE;
const children: ChildServer[] = [];
const database = await openBenchDatabase(config, { onQuery: () => undefined, log });

async function product(
  dist: string,
  nodeArgs: string[] = [],
  flags = productNodeFlags(),
  env = productEnvironment(),
  outputFile?: string,
): Promise<ChildServer> {
  const port = await freePort();
  const child = await startChild({
    name: `product ${dist}`,
    script: path.join(dist, 'src', 'main.js'),
    port,
    env: productServerEnv(database.url, port, env),
    nodeArgs: [...flags, ...probeArgs(DIST), ...nodeArgs],
    readyPath: '/health/ready',
    outputFile,
  });
  children.push(child);
  return child;
}

try {
  const data = await scaleData(config, database.orm, database.pool, log);
  const fields = itemFieldsOf(GRAPHQL_USERS_DOCUMENT);
  const startFloor = async (nodeArgs: string[] = []): Promise<ChildServer> => {
    const floorPort = await freePort();
    const child = await startChild({
      name: 'floor',
      script: path.join(DIST, 'bench', 'raw-http-server.js'),
      port: floorPort,
      env: {
        DATABASE_URL: database.url,
        PORT: String(floorPort),
        BENCH_ORGANIZATION_ID: data.scope.organizationId,
        BENCH_ENVIRONMENT: data.scope.environment,
        BENCH_USER_FIELDS: fields.join(','),
      },
      nodeArgs,
      readyPath: '/health/ready',
    });
    children.push(child);
    return child;
  };
  const floor = await startFloor();
  const builds: Array<[string, ChildServer]> = [['this', await product(DIST)]];
  if (baseline) {
    // BENCH_AB_BASELINE_FLAGS / _ENV: the baseline's Node flags and environment (e.g. to compare memory settings).
    const flags = process.env.BENCH_AB_BASELINE_FLAGS?.split(/\s+/).filter((flag) => flag !== '');
    const env = process.env.BENCH_AB_BASELINE_ENV; // K=V K=V, e.g. MALLOC_ARENA_MAX=2 (glibc reads it at start)
    builds.push([
      'baseline',
      await product(
        path.join(path.resolve(baseline), 'dist'),
        [],
        flags,
        env === undefined ? undefined : envPairs(env),
      ),
    ]);
  }

  const usersPath = restUsersPath(data.hotTenantId, config.pageSize);
  const auth = { authorization: `Bearer ${data.apiKey}` };
  const rest = (server: ChildServer): LoadTarget => ({
    name: 'rest',
    url: server.baseUrl + usersPath,
    method: 'GET',
    headers: auth,
  });
  const graphql = (server: ChildServer): LoadTarget => ({
    name: 'graphql',
    url: `${server.baseUrl}/graphql`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: graphqlUsersBody(data.hotTenantId, config.pageSize),
  });
  const kinds = (process.env.BENCH_AB_KINDS ?? 'rest,graphql').split(',');
  const passes: Array<[string, LoadTarget, ChildServer]> = [
    ['floor', { name: 'floor', url: floor.baseUrl + usersPath, method: 'GET' }, floor],
    ...builds.flatMap(([name, server]): Array<[string, LoadTarget, ChildServer]> =>
      kinds.map((kind) => [`${name} ${kind}`, kind === 'rest' ? rest(server) : graphql(server), server]),
    ),
  ];
  if (process.env.BENCH_AB_POSTGRAPHILE === '1') {
    const started = await startPostGraphile(database.url, log, probeArgs(DIST));
    if ('skipped' in started) log(`PostGraphile 5 not measured: ${started.skipped}`);
    else {
      children.push(started.server);
      const body = postgraphileBody(data.scope, data.hotTenantId, config.pageSize, fields);
      const target: LoadTarget = {
        name: 'postgraphile',
        url: `${started.server.baseUrl}/graphql`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      };
      passes.push(['postgraphile 5', target, started.server]);
    }
  }
  const settings = {
    connections: config.connections,
    durationSeconds: config.durationSeconds,
    warmupSeconds: config.warmupSeconds,
  };
  const results = new Map<string, LoadResult[]>(passes.map(([name]) => [name, []]));
  // PostgreSQL's CPU per request of each pass, its own backends only (pg-backends.ts).
  const backendCpu = new Map<string, number[]>(passes.map(([name]) => [name, []]));
  // A freshly started server's first pass pays for JIT and cold caches: prime each one unmeasured.
  for (const [, target, server] of passes)
    if (config.primeSeconds > 0 && process.env.BENCH_AB_ROUNDS !== '0')
      await measure(target, { ...settings, warmupSeconds: 0, durationSeconds: config.primeSeconds }, () =>
        server.cpuMs(),
      );
  // BENCH_AB_ROUNDS=0 only profiles (with BENCH_AB_PROFILE).
  const rounds = process.env.BENCH_AB_ROUNDS === '0' ? 0 : config.rounds;
  for (let round = 1; round <= rounds; round++) {
    // The builds take turns going first: in a fixed order the first build after the floor measured 7-12% more
    // CPU per request than the second whichever build it was (two swapped A/Bs of the same pair, 2026-11-27).
    const [floorPass, ...buildPasses] = passes;
    const perBuild = buildPasses.length / builds.length;
    const ordered =
      round % 2 === 1
        ? buildPasses
        : builds.flatMap((_, index) =>
            buildPasses.slice((builds.length - 1 - index) * perBuild, (builds.length - index) * perBuild),
          );
    for (const [name, target, server] of [floorPass, ...ordered]) {
      // Called at the measured pass's start and end: the server's CPU, PostgreSQL's, the probe's window.
      const postgres: number[] = [];
      const backends: BackendSnapshot[] = [];
      const result = await measure(target, settings, () => {
        postgres.push(postgresCpuMs(config.dataDir));
        backends.push(snapshotBackends(config.dataDir, server.pid));
        startProbe(server);
        return server.cpuMs();
      });
      results.get(name)!.push(result);
      const postgresPerRequest = (postgres[1] - postgres[0]) / Math.max(1, result.requests);
      const backendsPerRequest = backendCpuMsBetween(backends[0], backends[1]) / Math.max(1, result.requests);
      backendCpu.get(name)!.push(backendsPerRequest);
      log(
        `round ${round} ${name}: ${Math.round(result.requestsPerSecond)} req/s, ` +
          `CPU ${result.serverCpuMsPerRequest} ms/req (PostgreSQL ${postgresPerRequest.toFixed(2)}, ` +
          `its backends ${backendsPerRequest.toFixed(2)}), ` +
          `p50 ${result.latencyP50Ms} p99 ${result.latencyP99Ms} ms` +
          (result.failures > 0 ? `, ${result.failures} FAILED` : ''),
      );
      const timeline = await readProbe(server);
      if (timeline) log(`  timeline ${name}: ${timeline}`);
    }
  }
  const floorPasses = results.get('floor')!;
  if (rounds > 0) printTable();
  function printTable(): void {
    console.log(
      '\npass             req/s ×floor  CPU ms/req ×floor   p50/p99 ms   (means of rounds; ratios per round)',
    );
    for (const [name, passResults] of results) {
      const mean = (pick: (result: LoadResult, round: number) => number) =>
        passResults.reduce((sum, result, round) => sum + pick(result, round), 0) / passResults.length;
      const rps = mean((result) => result.requestsPerSecond);
      const rpsRatio = mean(
        (result, round) => result.requestsPerSecond / floorPasses[round].requestsPerSecond,
      );
      const cpu = mean((result) => result.serverCpuMsPerRequest ?? NaN);
      const cpuRatio = mean(
        (result, round) =>
          (result.serverCpuMsPerRequest ?? NaN) / (floorPasses[round].serverCpuMsPerRequest ?? NaN),
      );
      const p50 = mean((result) => result.latencyP50Ms);
      const p99 = Math.max(...passResults.map((result) => result.latencyP99Ms));
      console.log(
        `${name.padEnd(16)} ${rps.toFixed(0).padStart(5)} ${rpsRatio.toFixed(2).padStart(6)}  ` +
          `${cpu.toFixed(2).padStart(10)} ${cpuRatio.toFixed(2).padStart(6)}   ${p50.toFixed(1)}/${p99}`,
      );
    }
    // Paired per round (the two builds ran seconds apart): the median ratio is the least disturbed by the
    // machine's other load.
    for (const kind of baseline ? kinds : []) {
      const ratios = results
        .get(`this ${kind}`)!
        .map(
          (result, round) =>
            (result.serverCpuMsPerRequest ?? NaN) /
            (results.get(`baseline ${kind}`)![round].serverCpuMsPerRequest ?? NaN),
        );
      const sorted = [...ratios].sort((a, b) => a - b);
      const median =
        (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
      console.log(
        `${kind} CPU/request this ÷ baseline, per round: ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}; median ${median.toFixed(3)}`,
      );
      // Latency at equal CPU shows in req/s and p99, paired the same way.
      const pairs = results
        .get(`this ${kind}`)!
        .map((result, round) => [result, results.get(`baseline ${kind}`)![round]] as const);
      console.log(
        `${kind} req/s this ÷ baseline, per round: ` +
          pairs
            .map(([mine, theirs]) => (mine.requestsPerSecond / theirs.requestsPerSecond).toFixed(2))
            .join(' ') +
          `; p99 ms this/baseline: ${pairs.map(([mine, theirs]) => `${mine.latencyP99Ms}/${theirs.latencyP99Ms}`).join(' ')}`,
      );
      const mine = backendCpu.get(`this ${kind}`)!;
      const theirs = backendCpu.get(`baseline ${kind}`)!;
      console.log(
        `${kind} PostgreSQL backends' CPU/request this ÷ baseline, per round: ` +
          mine.map((ms, round) => (ms / theirs[round]).toFixed(2)).join(' ') +
          ` (ms: ${mine.map((ms, round) => `${ms.toFixed(2)}/${theirs[round].toFixed(2)}`).join(' ')})`,
      );
    }
    // Every pass's own backends (pg-backends.ts): steadier than the whole cluster's CPU printed per round.
    for (const [name, perRound] of backendCpu)
      if (perRound.length > 0)
        console.log(
          `PostgreSQL backends' CPU/request ${name}: ${perRound.map((ms) => ms.toFixed(2)).join(' ')} ms`,
        );
    for (const [name, server] of builds)
      console.log(`peak RSS ${name}: ${((server.peakRssKiB() ?? 0) / 1024).toFixed(1)} MiB`);
  }

  if (profiled === 'rest' || profiled === 'graphql' || profiled === 'floor') {
    const directory = path.join(config.dataDir, 'profiles');
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    const profileArgs = ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', directory];
    // `floor`: the same profile of the floor, to tell what every Node server pays from what is ours.
    const server = profiled === 'floor' ? await startFloor(profileArgs) : await product(DIST, profileArgs);
    const profiledPass = await measure(
      profiled === 'rest'
        ? rest(server)
        : profiled === 'graphql'
          ? graphql(server)
          : { name: 'floor', url: server.baseUrl + usersPath, method: 'GET' },
      settings,
    );

    await server.stop();
    const summary = summariseNewestProfile(directory);
    console.log(
      `\nprofile of a ${profiled} pass (${summary.file}), busy ${summary.totalMs} ms; measured pass ` +
        `${profiledPass.requests} requests, CPU ${profiledPass.serverCpuMsPerRequest} ms/req`,
    );
    for (const entry of [...summary.byModule, ...summary.byFunction])
      console.log(`${entry.percent.toFixed(1).padStart(5)}%  ${entry.name}`);
    // The measured pass: the profile's last seconds (it also covers start-up and the warm-up).
    const pauses = gcPausesOf(summary.file, settings.durationSeconds * 1000);
    console.log(`GC pauses during the load: ${JSON.stringify(pauses)}`);
  }
  if (profiled === 'rest-heap' || profiled === 'graphql-heap') {
    // Bytes allocated per request and by whom: the young generation's pauses are paid per allocated byte.
    const directory = path.join(config.dataDir, 'profiles');
    mkdirSync(directory, { recursive: true });
    const inspectPort = await freePort();
    const server = await product(DIST, [`--inspect=127.0.0.1:${inspectPort}`]);
    const target = profiled === 'rest-heap' ? rest(server) : graphql(server);
    await measure(target, { ...settings, durationSeconds: settings.warmupSeconds });
    let requests = 0;
    const file = path.join(directory, `${profiled}.heapprofile`);
    const summary = await allocationProfile(
      inspectPort,
      async () => (requests = (await measure(target, { ...settings, warmupSeconds: 0 })).requests),
      file,
    );
    await server.stop();
    console.log(
      `\nallocations of a ${profiled} pass (${file}): ${summary.totalMib} MiB for ${requests} requests, ` +
        `${((summary.totalMib * 1024) / requests).toFixed(1)} KiB per request`,
    );
    for (const entry of [...summary.byModule, ...summary.byFunction])
      console.log(
        `${entry.percent.toFixed(1).padStart(5)}%  ${entry.mib.toFixed(1).padStart(7)} MiB  ${entry.name}`,
      );
  }
  if (profiled === 'rest-gc' || profiled === 'graphql-gc') {
    // Every collection of a measured pass, by kind (is the p99 tail scavenges or full collections?).
    const directory = path.join(config.dataDir, 'profiles');
    mkdirSync(directory, { recursive: true });
    const file = path.join(directory, `${profiled}.log`);
    rmSync(file, { force: true });
    const server = await product(DIST, ['--trace-gc'], undefined, undefined, file);
    const target = profiled === 'rest-gc' ? rest(server) : graphql(server);
    await measure(target, { ...settings, durationSeconds: settings.warmupSeconds });
    const before = existsSync(file) ? readFileSync(file, 'utf8').length : 0;
    const result = await measure(target, { ...settings, warmupSeconds: 0 }, () => server.cpuMs());
    await new Promise((resolve) => setTimeout(resolve, 200)); // the last lines through the pipe
    const trace = readFileSync(file, 'utf8').slice(before);
    console.log(
      `\ncollections during a ${profiled} pass (${file}): ${Math.round(result.requestsPerSecond)} req/s, ` +
        `p50 ${result.latencyP50Ms} p99 ${result.latencyP99Ms} ms, CPU ${result.serverCpuMsPerRequest} ms/req, ` +
        `peak RSS ${((server.peakRssKiB() ?? 0) / 1024).toFixed(1)} MiB`,
    );
    for (const kind of summariseGcTrace(trace)) console.log(JSON.stringify(kind));
    await server.stop();
  }
} finally {
  await Promise.allSettled(children.map((child) => child.stop()));
  await database.close();
}
process.exit(0);
