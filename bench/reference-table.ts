/**
 * `node dist/bench/reference-table.js [results.json]`: the reference table of docs/benchmarks.md, printed from a
 * run's results (never typed by hand).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { keysOf, type TargetKey } from './interleave.js';
import type { BenchResults, LoadTable, Ratios } from './report.js';

const LABELS: Record<TargetKey, string> = {
  floor: 'raw `node:http` + `pg` (the floor)',
  express: 'raw Express + `pg`',
  rest: '**REST `/v1/tenants/:id/users`**',
  graphql: 'GraphQL `users` (same document)',
  postgraphile: 'PostGraphile 5.1.5 (amber preset, Node 24)',
};

function table(load: LoadTable, ratios: Ratios, rss: (key: TargetKey) => string): string[] {
  return [
    '| target | req/s | × floor | p50 / p99 ms | CPU ms/req | peak RSS |',
    '|---|---|---|---|---|---|',
    ...keysOf(load).map((key) => {
      const result = load[key]!;
      return (
        `| ${LABELS[key]} | ${Math.round(result.requestsPerSecond)} | ${(ratios[key] ?? 0).toFixed(2)} | ` +
        `${result.latencyP50Ms} / ${result.latencyP99Ms} | ${result.serverCpuMsPerRequest ?? '?'} | ${rss(key)} |`
      );
    }),
  ];
}

const file = path.resolve(process.argv[2] ?? '.data/bench/results.json');
const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
const { peakRssMiB: peak, settings } = results;
const rss = (key: TargetKey) =>
  `${{ floor: peak.floorServer, express: peak.expressServer, rest: peak.productServer, graphql: peak.productServer, postgraphile: peak.postgraphileServer }[key] ?? '?'} MiB`;
const lines = [
  `Run of ${results.startedAt} (${results.machine.node}, ${results.machine.cpus} CPUs, ${results.machine.platform}); ` +
    `${results.data.tenants} tenants, ${results.data.users} users, page of ${settings.pageSize}.`,
  '',
  `${settings.connections} connections, ${settings.rounds} interleaved rounds of ${settings.durationSeconds} s:`,
  '',
  ...table(results.load, results.ratios, rss),
  '',
  `${settings.highConnections} connections, one interleaved round:`,
  '',
  ...table(results.loadHigh, results.ratiosHigh, () => '—'),
  '',
  '| goal | value | target | met |',
  '|---|---|---|---|',
  ...results.goals.map(
    (goal) =>
      `| ${goal.name} | ${goal.value} | ${goal.goal} | ${goal.met === null ? 'not measured' : goal.met ? 'yes' : '**no**'} |`,
  ),
];
console.log(lines.join('\n'));
