import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { createGroup, createTenant, createUser, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { cloudObjects } from '../users/user-test-kit.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

type SegmentBody = ItemOf<'listBarrierSegments'>;
type PolicyBody = ItemOf<'listBarrierPolicies'>;
type ApplicationBody = DataOf<'applyInformationBarriers'>;

const HOUR = 3_600_000;

// A database of the file's own: the progress cron completes the applications of every organization. The jobs'
// runs and the cron items are the server's (onServer).
let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await realmSuite({ other: true })));
afterAll(() => app.stop());

function barriers<T>(
  method: string,
  path: string,
  tenant: Tenant | null,
  body?: unknown,
  key = org.keys.write,
) {
  return app.request<Envelope<T>>(method, `/api/security/info-barriers${path}`, {
    key,
    body,
    headers: tenant ? { 'X-Tenant-Id': tenant.id } : {},
  });
}

/** A tenant with a Sales and a Research department, a Legal office and a "Board" group. */
async function barrierTenant(
  scope = org.scope,
): Promise<{ tenant: Tenant; sales: User[]; research: User[] }> {
  const tenant = await createTenant(app, scope);
  const sales = [
    await createUser(app, tenant, { department: 'Sales' }),
    await createUser(app, tenant, { department: 'sales ' }),
  ];
  const research = [await createUser(app, tenant, { department: 'Research' })];
  await createGroup(app, tenant, { displayName: 'Board', members: [research[0]] });
  return { tenant, sales, research };
}

const segment = (tenant: Tenant, name: string, attribute: string, value: string) =>
  barriers<SegmentBody>('POST', '/segments', tenant, { name, attribute, value });
const policy = (tenant: Tenant, body: Record<string, unknown>) =>
  barriers<PolicyBody>('POST', '/policies', tenant, body);

describe('segments', () => {
  it('creates segments from an attribute and lists them; 409 naming the users when members would overlap', async () => {
    const { tenant, sales, research } = await barrierTenant();
    const created = await segment(tenant, 'Sales', 'department', 'Sales');
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Sales',
      attribute: 'department',
      value: 'Sales',
      memberCount: 2,
    });

    app.clock.advance(1000);
    const board = await segment(tenant, 'Board', 'memberOf', 'board');
    expect(board.body.data.memberCount).toBe(1);
    const overlap = await segment(tenant, 'Research', 'department', 'Research');
    expect(overlap.status).toBe(409);
    expect(overlap.body.error?.details).toEqual({
      overlapCount: 1,
      overlappingUsers: [
        {
          userId: research[0].id,
          userPrincipalName: research[0].userPrincipalName,
          displayName: research[0].displayName,
          segmentId: board.body.data.id,
          segmentName: 'Board',
        },
      ],
    });

    // Extension attributes come from the cloud's directory.
    await simulatedCloud(app).updateUser(tenant.externalId, sales[0].externalId, {
      extensionAttributes: { extensionAttribute7: 'Clearance-A' },
    });
    const custom = await segment(tenant, 'Cleared', 'extensionAttribute7', 'clearance-a');
    expect(custom.status).toBe(409);
    expect(custom.body.error?.details).toMatchObject({
      overlapCount: 1,
      overlappingUsers: [{ userId: sales[0].id }],
    });

    const list = await barriers<SegmentBody[]>('GET', '/segments', tenant, undefined, org.keys.read);
    expect(list.status).toBe(200);
    expect(list.body.data.map((s) => s.name)).toEqual(['Board', 'Sales']);
    expect(list.body.meta).toEqual({ page: 1, limit: 25, total: 2 });
  });

  it('names only the first 50 overlapping users but counts them all', async () => {
    const tenant = await createTenant(app, org.scope);
    for (let i = 0; i < 55; i++) await createUser(app, tenant, { department: 'Ops', jobTitle: 'Engineer' });
    await segment(tenant, 'Ops', 'department', 'Ops');
    const res = await segment(tenant, 'Engineers', 'jobTitle', 'Engineer');
    expect(res.status).toBe(409);
    expect(res.body.error?.details.overlapCount).toBe(55);
    expect(res.body.error?.details.overlappingUsers).toHaveLength(50);
  });

  it('400 naming the field with nothing written; X-Tenant-Id missing 400, foreign 404; Read key 403', async () => {
    const { tenant } = await barrierTenant();
    const blank = await segment(tenant, '  ', 'department', 'Sales');
    expect(blank.status).toBe(400);
    expect(blank.body.error?.details.fields).toEqual([{ field: 'name', problem: expect.any(String) }]);
    const badAttribute = await segment(tenant, 'X', 'favouriteColour', 'blue');
    expect(badAttribute.status).toBe(400);
    expect(badAttribute.body.error?.details.fields).toEqual([
      { field: 'attribute', problem: expect.any(String) },
    ]);
    const { rows } = await app.pool.query('select 1 from info_barrier_segments where tenant_id = $1', [
      tenant.id,
    ]);
    expect(rows).toHaveLength(0);

    const missing = await barriers('GET', '/segments', null);
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([
      { field: 'X-Tenant-Id', problem: expect.any(String) },
    ]);
    const theirs = await createTenant(app, other.scope);
    expect((await barriers('GET', '/segments', theirs)).status).toBe(404);
    expect((await segment(theirs, 'Sales', 'department', 'Sales')).status).toBe(404);
    expect(
      (
        await barriers(
          'POST',
          '/segments',
          tenant,
          { name: 'A', attribute: 'office', value: 'x' },
          org.keys.read,
        )
      ).status,
    ).toBe(403);
  });

  it('costs the same number of SQL statements at two page sizes', async () => {
    const { tenant } = await barrierTenant();
    await segment(tenant, 'Sales', 'department', 'Sales');
    await segment(tenant, 'Research', 'department', 'Research');
    const read = (limit: number) =>
      barriers('GET', `/segments?limit=${limit}`, tenant, undefined, org.keys.read);
    await read(1);
    expect(await app.sql.during(() => read(2))).toBe(await app.sql.during(() => read(1)));
  });
});

describe('policies and apply', () => {
  async function twoSegments() {
    const setup = await barrierTenant();
    const sales = (await segment(setup.tenant, 'Sales', 'department', 'Sales')).body.data;
    const research = (await segment(setup.tenant, 'Research', 'department', 'Research')).body.data;
    return { ...setup, salesSegment: sales, researchSegment: research };
  }

  it('creates Block and Allow policies; refuses self-targeting (400), unknown segments (400) and duplicate pairs (409)', async () => {
    const { tenant, salesSegment, researchSegment } = await twoSegments();
    const block = await policy(tenant, {
      name: 'Sales/Research wall',
      type: 'Block',
      sourceSegmentId: salesSegment.id,
      targetSegmentIds: [researchSegment.id],
    });
    expect(block.status).toBe(201);
    expect(block.body.data).toMatchObject({
      type: 'Block',
      sourceSegmentId: salesSegment.id,
      targetSegmentIds: [researchSegment.id],
    });

    const self = await policy(tenant, {
      name: 'x',
      type: 'Block',
      sourceSegmentId: salesSegment.id,
      targetSegmentIds: [salesSegment.id],
    });
    expect(self.status).toBe(400);
    expect(self.body.error?.details.fields).toEqual([
      { field: 'targetSegmentIds.0', problem: 'must not be the source segment' },
    ]);
    const theirs = await twoSegments();
    const foreignTarget = await policy(tenant, {
      name: 'x',
      type: 'Block',
      sourceSegmentId: salesSegment.id,
      targetSegmentIds: [theirs.researchSegment.id],
    });
    expect(foreignTarget.status).toBe(400);
    expect(foreignTarget.body.error?.details.fields).toEqual([
      { field: 'targetSegmentIds.0', problem: 'is not a segment of this tenant' },
    ]);
    // The reverse direction is the same pair: a Block restricts both ways.
    const duplicate = await policy(tenant, {
      name: 'again',
      type: 'Block',
      sourceSegmentId: researchSegment.id,
      targetSegmentIds: [salesSegment.id],
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error?.details).toMatchObject({ conflictingPolicyId: block.body.data.id });

    const list = await barriers<PolicyBody[]>('GET', '/policies', tenant, undefined, org.keys.read);
    expect(list.body.data.map((p) => p.id)).toEqual([block.body.data.id]);
  });

  it('refuses a contradictory set (an Allow with no Block) with 409 naming the policy, nothing started', async () => {
    const { tenant, salesSegment, researchSegment } = await twoSegments();
    const allow = await policy(tenant, {
      name: 'Exception without a wall',
      type: 'Allow',
      sourceSegmentId: salesSegment.id,
      targetSegmentIds: [researchSegment.id],
    });
    const res = await barriers<ApplicationBody>('POST', '/apply', tenant);
    expect(res.status).toBe(409);
    expect(res.body.error?.details).toEqual({
      conflicts: [
        {
          policyId: allow.body.data.id,
          policyName: 'Exception without a wall',
          type: 'Allow',
          sourceSegmentId: salesSegment.id,
          targetSegmentId: researchSegment.id,
          problem: expect.any(String),
        },
      ],
    });
    const { rows } = await app.pool.query('select 1 from info_barrier_applications where tenant_id = $1', [
      tenant.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('applies as a job: Pending, Applying once pushed, Applied only after 24 h of clock; a second apply meanwhile is 409', async () => {
    const { tenant, sales, salesSegment, researchSegment } = await twoSegments();
    await policy(tenant, {
      name: 'Wall',
      type: 'Block',
      sourceSegmentId: salesSegment.id,
      targetSegmentIds: [researchSegment.id],
    });
    await policy(tenant, {
      name: 'Exception',
      type: 'Allow',
      sourceSegmentId: researchSegment.id,
      targetSegmentIds: [salesSegment.id],
    });

    const started = await barriers<ApplicationBody>('POST', '/apply', tenant);
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      status: 'Pending',
      startedAt: app.clock.now().toISOString(),
      policyCount: 2,
      segmentCount: 2,
    });
    const second = await barriers('POST', '/apply', tenant);
    expect(second.status).toBe(409);
    expect(second.body.error?.details).toMatchObject({
      applicationId: started.body.data.id,
      status: 'Pending',
    });

    await onServer(app, 'applyBarriers', org.scope, started.body.data.id);
    const [pushed] = await cloudObjects(app, tenant.externalId, 'barrier_policy_set');
    expect(pushed).toMatchObject({
      segments: expect.arrayContaining([
        expect.objectContaining({
          id: salesSegment.id,
          memberExternalIds: expect.arrayContaining(sales.map((u) => u.externalId)),
        }),
      ]),
      policies: expect.arrayContaining([
        expect.objectContaining({ type: 'Block' }),
        expect.objectContaining({ type: 'Allow' }),
      ]),
    });
    const status = () => barriers<ApplicationBody>('GET', '/apply', tenant, undefined, org.keys.read);
    expect((await status()).body.data.status).toBe('Applying');
    expect((await barriers('POST', '/apply', tenant)).status).toBe(409);

    app.clock.advance(24 * HOUR - 1);
    await onServer(app, 'completeBarrierApplications');
    expect((await status()).body.data.status).toBe('Applying');
    app.clock.advance(1);
    await onServer(app, 'completeBarrierApplications');
    expect((await status()).body.data).toMatchObject({
      status: 'Applied',
      appliedAt: app.clock.now().toISOString(),
    });

    const again = await barriers<ApplicationBody>('POST', '/apply', tenant);
    expect(again.status).toBe(202);
    expect((await onServer(app, 'cronItems')).map((item) => item.task)).toContain('info-barrier-progress');
  });

  it('through GraphQL: create, list, apply and read the state; another organization gets NOT_FOUND', async () => {
    const { tenant } = await barrierTenant();
    const created = await app.graphql<{ createBarrierSegment: { id: string; attribute: string } }>(
      org.keys.write,
      `mutation { createBarrierSegment(tenantId: "${tenant.id}", input: { name: "Sales", attribute: DEPARTMENT, value: "Sales" }) { id attribute } }`,
    );
    expect(created.body.data?.createBarrierSegment.attribute).toBe('DEPARTMENT');
    const applied = await app.graphql<{ applyInformationBarriers: { status: string } }>(
      org.keys.write,
      `mutation { applyInformationBarriers(tenantId: "${tenant.id}") { status } }`,
    );
    expect(applied.body.data?.applyInformationBarriers.status).toBe('PENDING');
    const read = await app.graphql<{
      informationBarrierApplication: { status: string };
      barrierSegments: { items: unknown[] };
    }>(
      org.keys.read,
      `{ informationBarrierApplication(tenantId: "${tenant.id}") { status } barrierSegments(tenantId: "${tenant.id}") { items { id } } }`,
    );
    expect(read.body.data).toEqual({
      informationBarrierApplication: { status: 'PENDING' },
      barrierSegments: { items: [{ id: created.body.data?.createBarrierSegment.id }] },
    });
    const foreign = await app.graphql(
      other.keys.read,
      `{ barrierPolicies(tenantId: "${tenant.id}") { items { id } } }`,
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
