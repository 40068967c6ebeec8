import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadResult } from './load.js';
import type { ProfileSummary } from './profile.js';
import type { ScaledData } from './scale-data.js';
import type { StatementCounts } from './sql-count.js';
import type { DeliveryResults } from './webhook-delivery.js';

/** REST must reach at least half the throughput of the raw Express + pg baseline. */
export const REST_TO_RAW_GOAL = 0.5;

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  settings: { connections: number; durationSeconds: number; warmupSeconds: number; pageSize: number };
  machine: { node: string; cpus: number; platform: string };
  database: string;
  data: ScaledData['counts'] & { seconds: number };
  load: { raw: LoadResult; rest: LoadResult; graphql: LoadResult };
  ratios: { restToRaw: number; restToGraphql: number };
  goals: { restToRawAtLeast: number; restToRawMet: boolean; statementsEqual: boolean };
  sqlStatements: StatementCounts;
  peakRssMiB: { productServer: number | null; rawServer: number | null; benchProcess: number | null };
  /** Differences between the three answers found before measuring (empty when they match). */
  verification: string[];
  profile?: ProfileSummary;
  webhooks?: DeliveryResults;
}

export function toMiB(kib: number | null): number | null {
  return kib === null ? null : Math.round(kib / 102.4) / 10;
}

function ratio(numerator: number, denominator: number): number {
  return denominator > 0 ? Math.round((numerator / denominator) * 100) / 100 : 0;
}

export function ratios(load: BenchResults['load']): BenchResults['ratios'] {
  return {
    restToRaw: ratio(load.rest.requestsPerSecond, load.raw.requestsPerSecond),
    restToGraphql: ratio(load.rest.requestsPerSecond, load.graphql.requestsPerSecond),
  };
}

function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((cell, index) => String(cell).padStart(widths[index])).join('  ');
}

export function formatReport(results: BenchResults): string {
  const widths = [22, 9, 8, 8, 13, 9, 9];
  const lines = [
    '',
    `Load: ${results.settings.connections} connections, ${results.settings.durationSeconds} s each after ${results.settings.warmupSeconds} s warm-up, page of ${results.settings.pageSize} users`,
    row(['target', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'requests', 'failures'], widths),
  ];
  const labels: Array<[keyof BenchResults['load'], string]> = [
    ['raw', 'raw Express + pg'],
    ['rest', 'REST /v1 users'],
    ['graphql', 'GraphQL users'],
  ];
  for (const [key, label] of labels) {
    const result = results.load[key];
    lines.push(
      row(
        [
          label,
          Math.round(result.requestsPerSecond),
          result.latencyP50Ms,
          result.latencyP99Ms,
          result.serverCpuMsPerRequest ?? '?',
          result.requests,
          result.failures,
        ],
        widths,
      ),
    );
  }
  const { restToRaw, restToGraphql } = results.ratios;
  const sql = results.sqlStatements.byLimit;
  const rss = results.peakRssMiB;
  lines.push(
    '',
    `REST / raw      ${restToRaw.toFixed(2)}×   goal ≥ ${REST_TO_RAW_GOAL}×: ${results.goals.restToRawMet ? 'met' : 'NOT met'}`,
    `REST / GraphQL  ${restToGraphql.toFixed(2)}×`,
    `SQL statements per REST users list: ${Object.entries(sql)
      .map(([limit, count]) => `limit=${limit} → ${count}`)
      .join(', ')}   goal equal: ${results.goals.statementsEqual ? 'met' : 'NOT met'}`,
    `Peak RSS: product server ${rss.productServer ?? '?'} MiB, raw server ${rss.rawServer ?? '?'} MiB, bench process ${rss.benchProcess ?? '?'} MiB`,
    `Data: ${results.data.tenants} tenants, ${results.data.users} users (hot tenant ${results.data.hotTenantActiveUsers} active), ${results.data.licenseAssignments} license assignments, loaded in ${results.data.seconds.toFixed(1)} s`,
  );
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
    );
    lines.push(
      ...profile.byModule.map((entry) => `  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.name}`),
    );
    lines.push('  top functions:');
    lines.push(
      ...profile.byFunction.map((entry) => `  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.name}`),
    );
  }
  return lines.join('\n');
}

export function writeResults(file: string, results: BenchResults): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}
