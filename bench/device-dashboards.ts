/**
 * The device dashboard scenario of `npm run bench` (issue #15): BENCH_DEVICE_TENANTS tenants (1,000) holding
 * BENCH_DEVICES devices (500,000) in the bench organization, then each dashboard route read for one tenant
 * (X-Tenant-Id) and for every tenant of the organization, one connection at a time (a person opening the page):
 * p50 ≤ 50 ms is the goal (docs/devices.md "Dashboards"). Its own tenants, so the users scenario is untouched.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { ChildServer } from './children.js';
import type { BenchConfig } from './config.js';
import { vacuumUntilVisible, type BenchDatabase } from './database.js';
import type { ScaledData } from './scale-data.js';
import { measure, type LoadResult, type LoadSettings } from './load.js';

export interface DeviceDashboardSettings {
  tenants: number;
  devices: number;
  /** Concurrent requests while measuring (1: latency as one person sees it). */
  connections: number;
}

export interface DeviceDashboardResult {
  tenants: number;
  devices: number;
  seedSeconds: number;
  goalP50Ms: number;
  results: Array<LoadResult & { scope: 'one tenant' | 'organization'; path: string; goalMet: boolean }>;
}

export const DASHBOARD_GOAL_P50_MS = 50;
const PATHS = ['', '/compliance', '/enrollment', '/platforms'];

function positive(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isInteger(value) && value > 0 ? value : fallback;
}

export function deviceDashboardSettingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): DeviceDashboardSettings {
  return {
    tenants: positive(env.BENCH_DEVICE_TENANTS, 1_000),
    devices: positive(env.BENCH_DEVICES, 500_000),
    connections: positive(env.BENCH_DASHBOARD_CONNECTIONS, 1),
  };
}

/** Tenants and devices in one statement each (generate_series), deterministic, spread over platforms and states. */
async function seedDevices(
  pool: pg.Pool,
  organizationId: string,
  environment: string,
  settings: DeviceDashboardSettings,
  log: (message: string) => void,
) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into tenants (id, organization_id, environment, name, domain, domains, external_id, status,
         password_min_length, password_require_complexity, last_synced_at, created_at)
       select md5('bench-device-tenant-' || n)::uuid, $1, $2, 'Device tenant ' || n, 'devices-' || n || '.bench.example',
         array['devices-' || n || '.bench.example'], 'bench-ext-device-tenant-' || n, 'active', 8, true, now(), now()
       from generate_series(1, $3::int) n`,
      [organizationId, environment, settings.tenants],
    );
    await client.query(
      `insert into devices (id, organization_id, environment, tenant_id, external_id, device_name, os_platform,
         os_version, ownership, manufacturer, model, enrolled_at, compliance_state, compliance_grace_expires_at,
         risk_level, risk_rank, exposure_score, health_state, onboarding_status, last_seen_at, open_recommendations,
         isolation_state, created_at, updated_at)
       select gen_random_uuid(), $1, $2, md5('bench-device-tenant-' || (1 + g % $3::int))::uuid, 'bench-device-' || g,
         'DEVICE-' || g, (array['Windows', 'Windows', 'macOS', 'iOS', 'Android', 'Linux'])[1 + g % 6], '10.0.22631',
         case when g % 5 = 0 then 'Personal' else 'Corporate' end, 'Dell', 'Latitude',
         now() - (g % 700) * interval '1 day',
         (array['Compliant', 'Compliant', 'Compliant', 'Non-Compliant', 'In Grace Period', 'Not Evaluated'])[1 + g % 6],
         case when g % 6 = 4 then now() + interval '3 days' end,
         'Low', 1, 20, 'Active', 'Onboarded', now(), '{}', 'Not isolated', now(), now()
       from generate_series(1, $4::int) g`,
      [organizationId, environment, settings.tenants, settings.devices],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await pool.query('analyze tenants');
  // As autovacuum would: the visibility map lets the dashboards count from the index alone.
  await vacuumUntilVisible(pool, 'devices', log);
}

export async function measureDeviceDashboards(options: {
  pool: pg.Pool;
  organizationId: string;
  environment: string;
  apiKey: string;
  load: LoadSettings;
  settings: DeviceDashboardSettings;
  startServer: () => Promise<ChildServer>;
  log: (message: string) => void;
}): Promise<DeviceDashboardResult> {
  const { settings, log } = options;
  const started = performance.now();
  await seedDevices(options.pool, options.organizationId, options.environment, settings, log);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
  log(`  device dashboards: ${settings.tenants} tenants, ${settings.devices} devices in ${seedSeconds} s`);
  const server = await options.startServer();
  const tenantId = (
    await options.pool.query<{ id: string }>(`select md5('bench-device-tenant-1')::uuid as id`)
  ).rows[0].id;
  const results: DeviceDashboardResult['results'] = [];
  try {
    for (const scope of ['one tenant', 'organization'] as const) {
      for (const path of PATHS) {
        const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}` };
        if (scope === 'one tenant') headers['x-tenant-id'] = tenantId;
        const url = `${server.baseUrl}/api/device-management-vendor/dashboard${path}`;
        const result = await measure(
          { name: `dashboard${path} (${scope})`, url, method: 'GET', headers },
          { ...options.load, connections: settings.connections },
          () => server.cpuMs(),
        );
        results.push({ ...result, scope, path, goalMet: result.latencyP50Ms <= DASHBOARD_GOAL_P50_MS });
        log(
          `  ${result.name}: p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, ${result.failures} failures`,
        );
      }
    }
  } finally {
    await server.stop();
  }
  return {
    tenants: settings.tenants,
    devices: settings.devices,
    seedSeconds,
    goalP50Ms: DASHBOARD_GOAL_P50_MS,
    results,
  };
}

export function formatDeviceDashboardReport(result: DeviceDashboardResult): string {
  const lines = [
    `Device dashboards (${result.tenants} tenants, ${result.devices} devices; goal p50 ≤ ${result.goalP50Ms} ms)`,
    ...result.results.map(
      (r) =>
        `  ${r.name.padEnd(44)} p50 ${String(r.latencyP50Ms).padStart(5)} ms  p99 ${String(r.latencyP99Ms).padStart(5)} ms  ${r.goalMet ? 'ok' : 'MISSED'}${r.failures ? `  ${r.failures} failures` : ''}`,
    ),
  ];
  return lines.join('\n');
}

/** The whole scenario as `npm run bench` runs it: seed, measure, print, write `<dataDir>/device-dashboards.json`. */
export async function runDeviceDashboardScenario(options: {
  config: BenchConfig;
  database: BenchDatabase;
  data: ScaledData;
  startServer: () => Promise<ChildServer>;
  log: (message: string) => void;
}): Promise<DeviceDashboardResult> {
  const { config, data } = options;
  options.log('Device dashboards (issue #15)');
  const result = await measureDeviceDashboards({
    pool: options.database.pool,
    organizationId: data.scope.organizationId,
    environment: data.scope.environment,
    apiKey: data.apiKey,
    load: {
      connections: config.connections,
      durationSeconds: config.durationSeconds,
      warmupSeconds: config.warmupSeconds,
    },
    settings: deviceDashboardSettingsFromEnv(),
    startServer: options.startServer,
    log: options.log,
  });
  console.log(formatDeviceDashboardReport(result));
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(path.join(config.dataDir, 'device-dashboards.json'), JSON.stringify(result, null, 2));
  return result;
}
