import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TARGET_KEYS, type TargetKey } from './interleave.js';
import type { LoadResult } from './load.js';
import type { ProfileSummary } from './profile.js';
import type { ScaledData } from './scale-data.js';
import type { StatementCounts } from './sql-count.js';
import type { DeliveryResults } from './webhook-delivery.js';

/** Issue #11's goals, against the bare node:http + pg floor measured in the same interleaved run. */
export const GOALS = {
  restToFloor: 0.6,
  graphqlToFloor: 0.55,
  restP99Ms: 25,
  productPeakRssMiB: 250,
};

export type LoadTable = Record<TargetKey, LoadResult>;

export interface Goal {
  name: string;
  value: string;
  goal: string;
  met: boolean;
}

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
  ratios: Record<TargetKey, number>;
  ratiosHigh: Record<TargetKey, number>;
  goals: Goal[];
  sqlStatements: StatementCounts;
  peakRssMiB: {
    productServer: number | null;
    floorServer: number | null;
    expressServer: number | null;
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

export function ratiosTo(load: LoadTable): Record<TargetKey, number> {
  const floor = load.floor.requestsPerSecond;
  return Object.fromEntries(
    TARGET_KEYS.map((key) => [
      key,
      floor > 0 ? Math.round((load[key].requestsPerSecond / floor) * 100) / 100 : 0,
    ]),
  ) as Record<TargetKey, number>;
}

export function goalsOf(
  load: LoadTable,
  ratios: Record<TargetKey, number>,
  productPeakRssMiB: number | null,
  sql: StatementCounts,
): Goal[] {
  return [
    {
      name: 'REST / floor',
      value: `${ratios.rest.toFixed(2)}×`,
      goal: `≥ ${GOALS.restToFloor}×`,
      met: ratios.rest >= GOALS.restToFloor,
    },
    {
      name: 'GraphQL / floor',
      value: `${ratios.graphql.toFixed(2)}×`,
      goal: `≥ ${GOALS.graphqlToFloor}×`,
      met: ratios.graphql >= GOALS.graphqlToFloor,
    },
    {
      name: 'REST p99',
      value: `${load.rest.latencyP99Ms} ms`,
      goal: `≤ ${GOALS.restP99Ms} ms`,
      met: load.rest.latencyP99Ms <= GOALS.restP99Ms,
    },
    {
      name: 'product peak RSS',
      value: `${productPeakRssMiB ?? '?'} MiB`,
      goal: `≤ ${GOALS.productPeakRssMiB} MiB`,
      met: productPeakRssMiB !== null && productPeakRssMiB <= GOALS.productPeakRssMiB,
    },
    {
      name: 'SQL per users list',
      value: Object.entries(sql.byLimit)
        .map(([limit, count]) => `limit=${limit} → ${count}`)
        .join(', '),
      goal: 'equal',
      met: sql.equal,
    },
  ];
}

function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((cell, index) => String(cell).padStart(widths[index])).join('  ');
}

const LABELS: Record<TargetKey, string> = {
  floor: 'floor node:http + pg',
  express: 'raw Express + pg',
  rest: 'REST /v1 users',
  graphql: 'GraphQL users',
};

function loadTable(title: string, load: LoadTable, ratios: Record<TargetKey, number>): string[] {
  const widths = [22, 9, 9, 8, 8, 11, 9, 9];
  return [
    title,
    row(['target', 'req/s', '× floor', 'p50 ms', 'p99 ms', 'CPU ms/req', 'requests', 'failures'], widths),
    ...TARGET_KEYS.map((key) =>
      row(
        [
          LABELS[key],
          Math.round(load[key].requestsPerSecond),
          ratios[key].toFixed(2),
          load[key].latencyP50Ms,
          load[key].latencyP99Ms,
          load[key].serverCpuMsPerRequest ?? '?',
          load[key].requests,
          load[key].failures,
        ],
        widths,
      ),
    ),
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
    "Goals (ratios within the same interleaved run; absolute figures move with the machine's other load):",
    ...results.goals.map(
      (goal) =>
        `  ${goal.name.padEnd(20)} ${goal.value.padStart(24)}   goal ${goal.goal}: ${goal.met ? 'met' : 'NOT met'}`,
    ),
    `Peak RSS: product ${rss.productServer ?? '?'} MiB, floor ${rss.floorServer ?? '?'} MiB, Express ${rss.expressServer ?? '?'} MiB, bench process ${rss.benchProcess ?? '?'} MiB`,
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
