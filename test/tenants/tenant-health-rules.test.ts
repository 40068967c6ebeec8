import {
  BACKUP_AGE_CRITICAL_MS,
  BACKUP_AGE_WARNING_MS,
  computeTenantHealth,
  type TenantHealthSignals,
} from '../../src/tenants/tenant-health.js';

/** The table of docs/tenant-health.md, line by line, on the pure function (the API tests read it end to end). */

const now = new Date('2026-11-01T12:00:00.000Z');
const before = (ms: number) => new Date(now.getTime() - ms);
const synced: TenantHealthSignals = { lastSyncedAt: before(60_000) };
const health = (signals: Partial<TenantHealthSignals>) => computeTenantHealth({ ...synced, ...signals }, now);

it('is healthy with every signal fine or unknown', () => {
  expect(health({})).toBe('healthy');
  expect(
    health({ secureScorePercent: null, openHighAlerts: null, devices: null, oldestLatestBackupAt: null }),
  ).toBe('healthy');
  expect(health({ devices: 0, nonCompliantDevices: 0, openHighAlerts: 0 })).toBe('healthy');
});

it.each([
  [0, 'healthy'],
  [1, 'warning'],
  [2, 'warning'],
  [3, 'critical'],
  [40, 'critical'],
])('%i open High alerts: %s', (openHighAlerts, expected) => {
  expect(health({ openHighAlerts })).toBe(expected);
});

it.each([
  [1, 11, 'healthy'], // 9.09 %
  [1, 10, 'warning'], // 10 %
  [24, 97, 'warning'], // 24.7 %
  [1, 4, 'critical'], // 25 %
  [500, 500, 'critical'],
])('%i Non-Compliant of %i devices: %s', (nonCompliantDevices, devices, expected) => {
  expect(health({ devices, nonCompliantDevices })).toBe(expected);
});

it.each([
  [BACKUP_AGE_WARNING_MS - 1, 'healthy'],
  [BACKUP_AGE_WARNING_MS, 'warning'],
  [BACKUP_AGE_CRITICAL_MS - 1, 'warning'],
  [BACKUP_AGE_CRITICAL_MS, 'critical'],
])('a protected resource last backed up %i ms ago: %s', (age, expected) => {
  expect(health({ oldestLatestBackupAt: before(age) })).toBe(expected);
});

it('takes the worst signal', () => {
  expect(health({ openHighAlerts: 1, devices: 10, nonCompliantDevices: 1, secureScorePercent: 39 })).toBe(
    'warning',
  );
  expect(health({ openHighAlerts: 1, oldestLatestBackupAt: before(BACKUP_AGE_CRITICAL_MS) })).toBe(
    'critical',
  );
  expect(health({ secureScorePercent: 19, openHighAlerts: 0 })).toBe('critical');
  expect(computeTenantHealth({ lastSyncedAt: null, openHighAlerts: 0 }, now)).toBe('critical');
});
