import type { Envelope } from '../helpers/envelope.js';
import {
  startEnvironmentMatrix,
  type EnvironmentMatrix,
  type MatrixEnvironment,
} from './environment-matrix.js';
import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Licenses, password reset and offboarding, the same requests (REST and GraphQL) in both environments: the sandbox acts on
 * the simulated cloud and makes no Graph request; the live environment makes exactly the Graph requests
 * listed, and its changes are checked in the Graph fake.
 */
let matrix: EnvironmentMatrix;
beforeAll(async () => {
  matrix = await startEnvironmentMatrix();
}, 120_000);
afterAll(() => matrix?.stop());

interface Subject {
  userId: string;
  externalId: string;
  skuId: string;
}

/** A licensable user (usage location, not a service account) and a SKU with a free seat it does not hold. */
async function licensable(env: MatrixEnvironment): Promise<Subject> {
  const { rows } = await matrix.app.pool.query<{ user_id: string; external_id: string; sku_id: string }>(
    `select u.id as user_id, u.external_id, l.sku_id
       from users u join tenant_licenses l on l.tenant_id = u.tenant_id
      where u.tenant_id = $1 and u.deleted_at is null and u.usage_location is not null
        and not u.is_service_account and u.user_type = 'Member' and l.consumed < l.total
        and not exists (select 1 from license_assignments a where a.user_id = u.id and a.sku_id = l.sku_id)
      order by u.user_principal_name, l.sku_id limit 1`,
    [env.tenantId],
  );
  expect(rows).toHaveLength(1);
  return { userId: rows[0].user_id, externalId: rows[0].external_id, skuId: rows[0].sku_id };
}

/** Whether the environment's cloud has the user holding the SKU. */
async function upstreamHolds(env: MatrixEnvironment, subject: Subject): Promise<boolean> {
  if (env.name === 'live') {
    const record = matrix.scenario.consented.users.find((user) => user.user.id === subject.externalId);
    return (record?.user.assignedLicenses ?? []).some((license) => license.skuId === subject.skuId);
  }
  // The simulated cloud's tenant of this environment: its directory is generated from a fixed seed, so another
  // file's sandbox on the same database holds the same user and SKU ids.
  const { rows } = await matrix.app.pool.query(
    `select 1 from sim_cloud_objects where tenant_external_id = $1 and kind = 'assignment' and external_id = $2`,
    [env.externalId, `${subject.externalId}:${subject.skuId}`],
  );
  return rows.length === 1;
}

describe.each(['sandbox', 'live'] as const)(
  'licenses, passwords and offboarding in the %s environment',
  (name) => {
    let env: MatrixEnvironment;
    let subject: Subject;
    beforeAll(() => {
      env = matrix.environments.find((candidate) => candidate.name === name)!;
    });
    beforeEach(() => env.clear());

    const expectCloudCalls = (externalId: string, live: string[]) =>
      expect(env.graphCalls(externalId)).toEqual(env.name === 'sandbox' ? [] : live);

    it('lists the synced SKUs with their seats and names, without asking the cloud', async () => {
      const res = await matrix.app.request<
        Envelope<Array<{ skuPartNumber: string; name: string; total: number }>>
      >('GET', `/v1/tenants/${env.tenantId}/licenses`, { key: env.key });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      if (env.name === 'live')
        expect(res.body.data).toContainEqual(
          expect.objectContaining({ skuPartNumber: 'ENTERPRISEPREMIUM', name: 'Office 365 E5', total: 10 }),
        );
      expect(env.graphCalls()).toEqual([]);
    });

    it('assigns a license over REST and removes it over GraphQL, in the cloud', async () => {
      subject = await licensable(env);
      const assigned = await matrix.app.request('POST', `/v1/tenants/${env.tenantId}/licenses/assign`, {
        key: env.key,
        body: { userId: subject.userId, skuId: subject.skuId },
      });
      expect(assigned.status).toBe(200);
      expectCloudCalls(subject.externalId, ['POST /v1.0/users/{id}/assignLicense']);
      expect(await upstreamHolds(env, subject)).toBe(true);

      env.clear();
      const removed = await matrix.app.graphql<{ removeLicense: { removed: boolean } }>(
        env.key,
        `mutation($tenantId: UUID!, $input: LicenseAssignmentInput!) {
        removeLicense(tenantId: $tenantId, input: $input) { removed }
      }`,
        { tenantId: env.tenantId, input: { userId: subject.userId, skuId: subject.skuId } },
      );
      expect(removed.body.errors).toBeUndefined();
      expect(removed.body.data!.removeLicense.removed).toBe(true);
      expectCloudCalls(subject.externalId, ['POST /v1.0/users/{id}/assignLicense']);
      expect(await upstreamHolds(env, subject)).toBe(false);
    });

    it('resets a password over REST: set in the cloud, then the sessions revoked', async () => {
      const res = await matrix.app.request(
        'POST',
        `/api/user-management-identity/users/${subject.userId}/reset-password?tenantId=${env.tenantId}`,
        { key: env.key, body: { password: 'Correct-Horse-Battery-9', forceChangeAtNextSignIn: true } },
      );
      expect(res.status).toBe(200);
      expectCloudCalls(subject.externalId, [
        'PATCH /v1.0/users/{id}',
        'POST /v1.0/users/{id}/revokeSignInSessions',
      ]);
      if (env.name === 'live')
        expect(fakeAreaState(matrix.scenario.consented).passwords.get(subject.externalId)).toEqual({
          password: 'Correct-Horse-Battery-9',
          forceChangePasswordNextSignIn: true,
        });
    });

    it('a sync afterwards reads the assignments back unchanged', async () => {
      const assigned = await matrix.app.request('POST', `/v1/tenants/${env.tenantId}/licenses/assign`, {
        key: env.key,
        body: { userId: subject.userId, skuId: subject.skuId },
      });
      expect(assigned.status).toBe(200);
      const sync = await env.sync();
      expect(sync).toMatchObject({ status: 'Completed', error: null });
      const { rows } = await matrix.app.pool.query(
        'select 1 from license_assignments where user_id = $1 and sku_id = $2',
        [subject.userId, subject.skuId],
      );
      expect(rows).toHaveLength(1);
    });

    it('offboards a user: sign-in blocked, sessions revoked, automatic reply set, files checked, in the cloud', async () => {
      const { rows } = await matrix.app.pool.query<{ id: string; external_id: string }>(
        `select id, external_id from users where tenant_id = $1 and deleted_at is null and user_type = 'Member'
          and not is_service_account and id <> $2 order by user_principal_name limit 1`,
        [env.tenantId, subject.userId],
      );
      const leaver = rows[0];
      const started = await matrix.app.request<Envelope<{ id: string }>>(
        'POST',
        `/api/user-management-identity/users/${leaver.id}/offboard`,
        {
          key: env.key,
          headers: { 'X-Tenant-Id': env.tenantId },
          body: {
            convertMailboxToShared: false,
            removeLicenses: false,
            autoReplyMessage: 'I have left; please write to the service desk.',
            transferFilesTo: subject.userId,
          },
        },
      );
      expect(started.status).toBe(202);
      const done = await eventually(
        async () => {
          const res = await matrix.app.request<
            Envelope<{ status: string; steps: Array<{ name: string; status: string }> }>
          >('GET', `/api/user-management-identity/users/${leaver.id}/offboard/${started.body.data.id}`, {
            key: env.key,
            headers: { 'X-Tenant-Id': env.tenantId },
          });
          if (!['Completed', 'Failed'].includes(res.body.data.status)) throw new Error(res.body.data.status);
          return res.body.data;
        },
        { timeout: 30_000, what: 'the offboarding to finish' },
      );
      expect(done.status).toBe('Completed');
      if (env.name === 'sandbox') return expect(env.graphCalls()).toEqual([]);
      const calls = env.graphCalls(leaver.external_id).map((call) => call.split('?')[0]);
      expect(calls).toEqual(
        expect.arrayContaining([
          'PATCH /v1.0/users/{id}',
          'POST /v1.0/users/{id}/revokeSignInSessions',
          'PATCH /v1.0/users/{id}/mailboxSettings',
          'GET /v1.0/users/{id}/drive/root/children',
        ]),
      );
      expect(fakeAreaState(matrix.scenario.consented).autoReplies.get(leaver.external_id)).toMatchObject({
        status: 'alwaysEnabled',
      });
      expect(await env.upstream(leaver.external_id)).toMatchObject({ accountEnabled: false, deleted: false });
    });
  },
);
