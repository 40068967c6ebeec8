import { fakeUser } from '../graph-fake/graph-fake-state.js';
import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import type { Envelope } from '../helpers/envelope.js';
import { FULL_ROLES } from '../helpers/graph-fake.js';
import { retryTaskNow } from '../helpers/job-queue.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';
import {
  graphCalls,
  onboardAndSyncLive,
  onboardLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

let world: LiveWorld<SharedApp>;
beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
});
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

const tenantRows = async (organizationId: string) =>
  (
    await world.app.pool.query<{ external_id: string; environment: string }>(
      'select external_id, environment from tenants where organization_id = $1',
      [organizationId],
    )
  ).rows;

describe('the live environment on Microsoft 365', () => {
  it('says the connection is active', async () => {
    const res = await world.app.request<Envelope<{ providerActive: boolean }>>(
      'GET',
      '/api/settings/cloud-connection',
      { key: world.key },
    );
    expect(res.body.data.providerActive).toBe(true);
  });

  it('lists the available tenants from delegatedAdminCustomers (the partner tenant), a page at a time', async () => {
    type Page = {
      data: Array<{ externalId: string; displayName: string; tenantId: string | null; status: string }>;
      meta: { nextCursor: string | null };
    };
    const first = await world.app.request<Page>('GET', '/v1/available-tenants?limit=2', { key: world.key });
    expect(first.status).toBe(200);
    const { consented, consentMissing, unknownApp } = world.scenario;
    expect(first.body.data).toEqual([
      { externalId: consented.id, displayName: 'Fabrikam', tenantId: null, status: 'Available' },
      {
        externalId: consentMissing.id,
        displayName: 'Northwind Traders',
        tenantId: null,
        status: 'Available',
      },
    ]);
    expect(graphCalls(world)).toEqual([
      'GET /v1.0/tenantRelationships/delegatedAdminCustomers?$select=id,tenantId,displayName&$top=2',
    ]);
    const second = await world.app.request<Page>(
      'GET',
      `/v1/available-tenants?limit=2&after=${encodeURIComponent(first.body.meta.nextCursor!)}`,
      { key: world.key },
    );
    expect(second.body.data.map((item) => item.externalId)).toEqual([unknownApp.id]);
    expect(second.body.meta.nextCursor).toBeNull();
    // A cursor that is not one of these pages is the client's mistake, and the app's token never follows it.
    const forged = await world.app.request(
      'GET',
      '/v1/available-tenants?after=https%3A%2F%2Fevil.example%2Fx',
      {
        key: world.key,
      },
    );
    expect(forged.status).toBe(400);
  });

  it.each(['consentMissing', 'unknownApp'] as const)(
    'refuses a customer that did not consent (%s): 403 CONSENT_REQUIRED with the admin-consent URL, nothing stored',
    async (which) => {
      const customer = world.scenario[which];
      const refused = await onboardLive(world, customer.id);
      expect(refused.body.data).toBeNull();
      const url =
        `${world.scenario.fake.loginUrl}/${customer.id}/v2.0/adminconsent?client_id=${world.scenario.app.clientId}` +
        '&scope=https%3A%2F%2Fgraph.microsoft.com%2F.default';
      expect(refused.body.errors?.[0].extensions).toMatchObject({
        code: 'FORBIDDEN',
        details: {
          reason: 'CONSENT_REQUIRED',
          externalId: customer.id,
          provider: 'microsoft365',
          adminConsentUrl: url,
        },
      });
      expect(refused.body.errors?.[0].message).toContain(url);
      // A token request for that tenant, and no Graph call at all.
      expect(world.scenario.fake.tokenRequests().map((request) => request.tenantId)).toEqual([customer.id]);
      expect(graphCalls(world)).toEqual([]);
      expect(await tenantRows(world.org.organization.id)).toEqual([]);
    },
  );

  it('a throttled GET /organization answers 503 SERVICE_UNAVAILABLE with Retry-After, and nothing is onboarded', async () => {
    world.scenario.fake.inject({ url: '/v1.0/organization', status: 429, retryAfterSeconds: 90 });
    const refused = await onboardLive(world, world.scenario.consented.id);
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors?.[0].extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { retryAfterSeconds: 90 },
    });
    expect(await tenantRows(world.org.organization.id)).toEqual([]);
  });

  it('onboards a consented customer with its name and domains from GET /organization, then syncs it through Graph', async () => {
    const { consented } = world.scenario;
    const directory = fakeDirectory(consented);
    const [adele, alex] = consented.users.map((record) => record.user);
    directory.roles = [
      {
        id: 'role-ga',
        displayName: 'Global Administrator',
        roleTemplateId: '62e90394-69f5-4237-9190-012177145e10',
        memberIds: [adele.id!],
      },
    ];
    directory.managers.set(alex.id!, adele.id!);
    adele.signInActivity = {
      lastSignInDateTime: '2026-10-20T10:00:00Z',
      lastNonInteractiveSignInDateTime: '2026-10-25T10:00:00Z',
    };
    directory.groups = [{ id: 'group-sales', displayName: 'Sales', memberIds: [adele.id!, alex.id!] }];
    const gone = world.scenario.fake.state.putUser(consented, fakeUser(consented, 'Megan Bowen'));
    world.scenario.fake.state.deleteUser(consented, gone.id!);
    consented.users.find((record) => record.user.id === gone.id)!.user.deletedDateTime =
      '2026-10-30T08:00:00Z';

    const { tenantId, sync } = await onboardAndSyncLive(world);
    const tenant = await world.app.request<Envelope<{ name: string; domain: string; status: string }>>(
      'GET',
      `/v1/tenants/${tenantId}`,
      { key: world.key },
    );
    expect(tenant.body.data).toMatchObject({ name: 'Fabrikam', domain: 'fabrikam.com', status: 'active' });
    expect(sync.summary).toMatchObject({ usersCreated: 6 });

    const calls = graphCalls(world);
    expect(calls).toContain('GET /v1.0/organization?$select=id,displayName,verifiedDomains');
    expect(calls.filter((call) => call.startsWith('GET /v1.0/users/delta'))[0]).toMatch(
      /^GET \/v1\.0\/users\/delta\?\$select=id,userPrincipalName,.*,manager$/,
    );
    expect(calls).toEqual(
      expect.arrayContaining([
        'GET /v1.0/directoryRoles?$select=id,displayName',
        'POST /v1.0/$batch',
        'GET /v1.0/groups?$select=id,displayName',
        'GET /v1.0/users?$select=id,signInActivity&$top=999',
        expect.stringMatching(/^GET \/v1\.0\/directory\/deletedItems\/microsoft\.graph\.user\?\$select=/),
      ]),
    );
    // Nothing but reads during a sync.
    expect(calls.filter((call) => !call.startsWith('GET ') && call !== 'POST /v1.0/$batch')).toEqual([]);

    const users = await world.app.request<
      Envelope<Array<{ userPrincipalName: string; managerId: string | null; id: string }>>
    >('GET', `/v1/tenants/${tenantId}/users?limit=100`, { key: world.key });
    expect(users.body.data.map((user) => user.userPrincipalName).sort()).toEqual([
      'adele.vance@fabrikam.com',
      'alex.wilber@fabrikam.com',
      'diego.siciliani@fabrikam.com',
      'grady.archie@fabrikam.com',
      'lee.gu@fabrikam.com',
    ]);
    const byUpn = new Map(users.body.data.map((user) => [user.userPrincipalName, user]));
    expect(byUpn.get('alex.wilber@fabrikam.com')!.managerId).toBe(byUpn.get('adele.vance@fabrikam.com')!.id);
    const { rows } = await world.app.pool.query<{
      user_principal_name: string;
      directory_roles: string[];
      deleted_at: Date | null;
    }>(
      'select user_principal_name, directory_roles, deleted_at from users where tenant_id = $1 order by user_principal_name',
      [tenantId],
    );
    expect(
      rows.find((row) => row.user_principal_name === 'adele.vance@fabrikam.com')!.directory_roles,
    ).toEqual(['Global Administrator']);
    // The latest of the interactive and non-interactive sign-ins (signInActivity, Entra ID P1).
    expect(
      (
        await world.app.pool.query<{ last_sign_in_at: Date | null }>(
          "select last_sign_in_at from users where tenant_id = $1 and user_principal_name = 'adele.vance@fabrikam.com'",
          [tenantId],
        )
      ).rows[0].last_sign_in_at,
    ).toEqual(new Date('2026-10-25T10:00:00Z'));
    expect(rows.find((row) => row.user_principal_name === 'megan.bowen@fabrikam.com')!.deleted_at).toEqual(
      new Date('2026-10-30T08:00:00Z'),
    );
  });

  describe('syncing again', () => {
    let tenantId: string;
    beforeAll(async () => {
      const { rows } = await world.app.pool.query<{ id: string }>(
        'select id from tenants where organization_id = $1',
        [world.org.organization.id],
      );
      tenantId = rows[0].id;
    });

    it('notes the areas Graph has no API for and goes on (each step "not available on microsoft365")', async () => {
      const sync = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as SyncBody & {
        warnings: string[];
      };
      expect(sync).toMatchObject({ status: 'Completed', error: null });
      expect(sync.warnings).toEqual(
        expect.arrayContaining([expect.stringMatching(/^contacts: not available on microsoft365 \(/)]),
      );
    });

    it("a tenant without Entra ID P1 has no sign-in logs: the step says so with Graph's reason, never an empty list", async () => {
      fakeDirectory(world.scenario.consented).premium = false;
      try {
        const sync = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as SyncBody & {
          warnings: string[];
        };
        expect(sync).toMatchObject({ status: 'Completed', error: null });
        expect(sync.warnings).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/not available on microsoft365 .*Entra ID P1 or P2.*premium license/),
          ]),
        );
        expect(graphCalls(world)).toEqual(
          expect.arrayContaining([expect.stringMatching(/^GET \/v1\.0\/auditLogs\/signIns/)]),
        );
      } finally {
        fakeDirectory(world.scenario.consented).premium = true;
      }
    });

    it('a customer that withdrew its consent is suspended at the next sync (a fresh token asked), and active again once it consents', async () => {
      const { consented, app } = world.scenario;
      consented.consents.set(app.clientId, 'consent-missing');
      try {
        const refused = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
        expect(refused.status).toBe('Failed');
        expect(refused.error).toContain('adminconsent');
        const tenant = await world.app.request<Envelope<{ status: string }>>(
          'GET',
          `/v1/tenants/${tenantId}`,
          {
            key: world.key,
          },
        );
        expect(tenant.body.data.status).toBe('suspended');
      } finally {
        consented.consents.set(app.clientId, { roles: FULL_ROLES });
      }
      const again = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
      expect(again).toMatchObject({ status: 'Completed', error: null });
      const tenant = await world.app.request<Envelope<{ status: string }>>('GET', `/v1/tenants/${tenantId}`, {
        key: world.key,
      });
      expect(tenant.body.data.status).toBe('active');
    });

    it('a failing Graph during a sync is retried by the job after its Retry-After, and the sync completes', async () => {
      // More 503s than the transport's own retries (2): the job fails its attempt and comes back.
      world.scenario.fake.inject({ url: '/v1.0/users/delta', status: 503, retryAfterSeconds: 1, times: 3 });
      // The queue holds the retry at least the Retry-After (src/core/jobs.ts); made due once it waits there.
      const [sync, retry] = await Promise.all([
        syncAndWait(world.app, world.org, tenantId, 60_000, world.key),
        retryTaskNow(world.app.pool, 'tenant.sync', { organizationId: world.org.organization.id }),
      ]);
      expect(retry.attempts).toBe(1);
      expect(retry.secondsAhead).toBeGreaterThan(1);
      expect(sync).toMatchObject({ status: 'Completed', error: null });
      const deltas = world.scenario.fake.requests.filter((r) => r.url.startsWith('/v1.0/users/delta'));
      expect(deltas.map((r) => r.status).slice(0, 4)).toEqual([503, 503, 503, 200]);
    });
  });
});
