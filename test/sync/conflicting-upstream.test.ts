/**
 * A directory sync never dies on one conflicting upstream record (issue #34 item 1): two active cloud users
 * with one user principal name (what a crashed write used to leave) are reconciled as one user; the other is
 * skipped, counted in the sync's summary (`usersSkipped`) and explained in a readable warning, never the
 * constraint's text or the key values. A constraint failure that does stop a sync is stored readably too.
 */
import { readableSyncFailure } from '../../src/tenants/tenant-sync.task.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
beforeAll(
  async () =>
    ({ app, org, tenant } = await sharedSuite({
      jobs: true,
      tenant: { domain: 'conflicting-upstream.example' },
    })),
);
afterAll(() => app.stop());

/** A second active cloud user with the user principal name of an existing one (another upstream id). */
async function duplicateUpstream(upn: string): Promise<void> {
  const provider = simulatedCloud(app);
  const original = (await provider.listUsers(tenant.externalId)).find(
    (user) => user.userPrincipalName === upn,
  )!;
  const { externalId, lastSignInAt, createdAt, deletedAt, onPremisesSynced, ...profile } = original;
  void [externalId, lastSignInAt, createdAt, deletedAt, onPremisesSynced];
  await provider.createUser(tenant.externalId, {
    ...profile,
    userPrincipalName: upn.toUpperCase(),
    password: 'Str0ng-Passw0rd!',
  });
}

describe('a sync with a conflicting upstream record', () => {
  it('completes, skips and counts the duplicate, with a readable warning', async () => {
    const upn = `dup@${tenant.domain}`;
    const created = await app.request('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: { userPrincipalName: upn, firstName: 'Dup', lastName: 'Licate' },
    });
    expect(created.status).toBe(201);
    await duplicateUpstream(upn);

    const sync = await syncAndWait(app, org, tenant.id);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(sync.summary?.usersSkipped).toBe(1);
    const { rows } = await app.pool.query<{ warnings: string[] }>(
      'select warnings from tenant_syncs where id = $1',
      [sync.id],
    );
    expect(rows[0].warnings).toEqual([
      expect.stringMatching(/1 upstream user\(s\) skipped: their user principal name/),
    ]);
    expect(rows[0].warnings.join(' ')).not.toMatch(/dup@|unique|constraint|users_active/i);
    const users = await app.pool.query(
      'select 1 from users where tenant_id = $1 and user_principal_name_folded = $2 and deleted_at is null',
      [tenant.id, upn],
    );
    expect(users.rows).toHaveLength(1);
  });

  it('a constraint failure that stops a sync is stored as a readable sentence', () => {
    const raw = Object.assign(
      new Error('duplicate key value violates unique constraint "users_active_upn_unique"'),
      { code: '23505', detail: 'Key (organization_id, environment, user_principal_name_folded)=(…, dup@x)' },
    );
    const readable = readableSyncFailure('users', raw).message;
    expect(readable).toMatch(/^The users step could not store what the cloud returned/);
    expect(readable).not.toMatch(/constraint|users_active|Key \(|dup@/);
  });
});
