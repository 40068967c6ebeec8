import { fakeBackup, type FakeBackup, type FakeUnit } from './graph-fake-backup.js';
import type { FakeTenant } from './graph-fake-state.js';

/**
 * A tenant's Microsoft 365 Backup as tests set it up: each user's mailbox and OneDrive and one site protected
 * (`mbx-<n>`, `drv-<n>`, `site-intranet`), each with `recent` restore points ten minutes apart, the newest ten
 * minutes ago (`rp-<unit>-0`; Graph's restore points are on the real clock), and one at 12:00 UTC on each of
 * the 20 days before today (`rp-<unit>-d<days ago>`), as Microsoft 365 Backup keeps them.
 */
export function seedFakeBackup(
  tenant: FakeTenant,
  users: Array<{ id: string; userPrincipalName: string }>,
  recent = 7,
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
  const tenMinutes = 600_000;
  const day = 24 * 3_600_000;
  const newest = Math.floor(Date.now() / tenMinutes) * tenMinutes - tenMinutes;
  const midday = Math.floor(Date.now() / day) * day + day / 2;
  const point = (unitId: string, id: string, at: number) => ({
    id,
    unitId,
    protectionDateTime: new Date(at).toISOString(),
    expirationDateTime: new Date(at + 365 * day).toISOString(),
    tags: 'none' as const,
  });
  backup.restorePoints = Object.values(backup.units).flatMap((units) =>
    units.flatMap(({ id }) => [
      ...Array.from({ length: recent }, (_, k) => point(id!, `rp-${id}-${k}`, newest - k * tenMinutes)),
      ...Array.from({ length: 20 }, (_, k) => point(id!, `rp-${id}-d${k + 1}`, midday - (k + 1) * day)),
    ]),
  );
  return backup;
}
