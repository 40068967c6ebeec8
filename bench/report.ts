import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatGoal, type Goal } from './goals.js';
import { keysOf, type TargetKey, type TargetsOf } from './interleave.js';
import type { LoadResult } from './load.js';
import type { ProfileSummary } from './profile.js';
import type { ScaledData } from './scale-data.js';
import type { StatementCounts } from './sql-count.js';
import type { DeliveryResults } from './webhook-delivery.js';

export type LoadTable = TargetsOf<LoadResult>;
export type Ratios = Partial<Record<TargetKey, number>>;

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  settings: {
    connections: number;
    highConnections: number;
    rounds: number;
    durationSeconds: number;
    warmupSeconds: number;
    pageSize: number;
  };
  machine: { node: string; cpus: number; platform: string };
  database: string;
  data: ScaledData['counts'] & { seconds: number };
  /** At `connections` (10 by default), `rounds` interleaved rounds. */
  load: LoadTable;
  /** At `highConnections` (32 by default), one interleaved round. */
  loadHigh: LoadTable;
  /** req/s of each target divided by the floor's, in the same pass. */
  ratios: Ratios;
  ratiosHigh: Ratios;
  /** Issue #31's goals 1–6 (bench/goals.ts). */
  goals: Goal[];
  sqlStatements: StatementCounts;
  peakRssMiB: {
    productServer: number | null;
    floorServer: number | null;
    expressServer: number | null;
    postgraphileServer?: number | null;
    benchProcess: number | null;
  };
  /** Differences between the answers found before measuring (empty when they match). */
  verification: string[];
  profile?: ProfileSummary;
  webhooks?: DeliveryResults;
}

export function toMiB(kib: number | null): number | null {
  return kib === null ? null : Math.round(kib / 102.4) / 10;
}

export function ratiosTo(load: LoadTable): Ratios {
  const floor = load.floor.requestsPerSecond;
  return Object.fromEntries(
    keysOf(load).map((key) => [
      key,
      floor > 0 ? Math.round((load[key]!.requestsPerSecond / floor) * 100) / 100 : 0,
    ]),
  );
}

function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((cell, index) => String(cell).padStart(widths[index])).join('  ');
}

const LABELS: Record<TargetKey, string> = {
  floor: 'floor node:http + pg',
  express: 'raw Express + pg',
  rest: 'REST /v1 users',
  graphql: 'GraphQL users',
  postgraphile: 'PostGraphile 5 (amber)',
};

function loadTable(title: string, load: LoadTable, ratios: Ratios): string[] {
  const widths = [22, 9, 9, 8, 8, 11, 9, 9];
  return [
    title,
    row(['target', 'req/s', '× floor', 'p50 ms', 'p99 ms', 'CPU ms/req', 'requests', 'failures'], widths),
    ...keysOf(load).map((key) => {
      const result = load[key]!;
      return row(
        [
          LABELS[key],
          Math.round(result.requestsPerSecond),
          (ratios[key] ?? 0).toFixed(2),
          result.latencyP50Ms,
          result.latencyP99Ms,
          result.serverCpuMsPerRequest ?? '?',
          result.requests,
          result.failures,
        ],
        widths,
      );
    }),
  ];
}

export function formatReport(results: BenchResults): string {
  const { settings } = results;
  const rss = results.peakRssMiB;
  const lines = [
    '',
    ...loadTable(
      `Load: ${settings.connections} connections, ${settings.rounds} interleaved rounds of ${settings.durationSeconds} s ` +
        `(after ${settings.warmupSeconds} s warm-up each), page of ${settings.pageSize} users`,
      results.load,
      results.ratios,
    ),
    '',
    ...loadTable(
      `Load: ${settings.highConnections} connections, one interleaved round`,
      results.loadHigh,
      results.ratiosHigh,
    ),
    '',
    "Goals of issue #31 (ratios within the same interleaved run; absolute figures move with the machine's other load):",
    ...results.goals.map(formatGoal),
    `Peak RSS: product ${rss.productServer ?? '?'} MiB, floor ${rss.floorServer ?? '?'} MiB, Express ${rss.expressServer ?? '?'} MiB, ` +
      `PostGraphile 5 ${rss.postgraphileServer ?? '–'} MiB, bench process ${rss.benchProcess ?? '?'} MiB`,
    `Data: ${results.data.tenants} tenants, ${results.data.users} users (hot tenant ${results.data.hotTenantActiveUsers} active), ${results.data.licenseAssignments} license assignments, loaded in ${results.data.seconds.toFixed(1)} s`,
  ];
  if (results.verification.length > 0)
    lines.push(
      '',
      'WARNING: the answers differ, so the comparison is not like for like:',
      ...results.verification.map((p) => `  - ${p}`),
    );
  if (results.profile) {
    const profile = results.profile;
    lines.push(
      '',
      `CPU profile of the product server during a REST pass (${profile.file}), self time of ${profile.totalMs} ms busy:`,
      ...profile.byModule.map((entry) => `  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.name}`),
      '  top functions:',
      ...profile.byFunction.map((entry) => `  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.name}`),
    );
  }
  return lines.join('\n');
}

export function writeResults(file: string, results: BenchResults): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}
