import { fakeBackup, type FakeBackup, type FakeUnit } from './graph-fake-backup.js';
import type { FakeTenant } from './graph-fake-state.js';

/**
 * A tenant's Microsoft 365 Backup as tests set it up: each user's mailbox and OneDrive and one site protected
 * (`mbx-<n>`, `drv-<n>`, `site-intranet`), each with `points` restore points one hour apart, the newest an
 * hour ago (Graph's restore points are on the real clock): `rp-<unit>-0` is the newest.
 */
export function seedFakeBackup(
  tenant: FakeTenant,
  users: Array<{ id: string; userPrincipalName: string }>,
  points = 7,
): FakeBackup {
  const backup = fakeBackup(tenant);
  const created = '2026-10-01T00:00:00Z';
  const unit = (id: string, fields: Record<string, unknown>): FakeUnit => ({
    id,
    policyId: 'policy-1',
    status: 'protected',
    createdDateTime: created,
    ...fields,
  });
  backup.units.mailbox = users.map((user, n) =>
    unit(`mbx-${n}`, {
      directoryObjectId: user.id,
      email: user.userPrincipalName,
      displayName: user.userPrincipalName,
    }),
  );
  backup.units.drive = users.map((user, n) =>
    unit(`drv-${n}`, {
      directoryObjectId: user.id,
      email: user.userPrincipalName,
      displayName: user.userPrincipalName,
    }),
  );
  backup.units.site = [
    unit('site-intranet', {
      siteId: 'contoso.sharepoint.com,1,2',
      siteName: 'Intranet',
      siteWebUrl: 'https://contoso.sharepoint.com/sites/intranet',
    }),
  ];
  const hour = 3_600_000;
  const newest = Math.floor(Date.now() / hour) * hour - hour;
  backup.restorePoints = Object.values(backup.units).flatMap((units) =>
    units.flatMap((protectedUnit) =>
      Array.from({ length: points }, (_, k) => ({
        id: `rp-${protectedUnit.id}-${k}`,
        unitId: protectedUnit.id!,
        protectionDateTime: new Date(newest - k * hour).toISOString(),
        expirationDateTime: new Date(newest - k * hour + 365 * 24 * hour).toISOString(),
        tags: 'none' as const,
      })),
    ),
  );
  return backup;
}
