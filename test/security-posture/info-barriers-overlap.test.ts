import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import {
  createOrganizationWithKeys,
  createTenant,
  createUser,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';
import { cloudObjects } from '../users/user-test-kit.js';
import type { DataOf } from '../helpers/api-types.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

/**
 * SPEC 2.6 "a user belongs to one segment only" after segments exist: a profile change can put a user in
 * two segments, so apply refuses the set (409, the creation check's details) and the apply job re-checks.
 */

type SegmentBody = DataOf<'createBarrierSegment'>;
type ApplicationBody = DataOf<'applyInformationBarriers'>;

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  app = await sharedApp();
  org = await createOrganizationWithKeys(app);
});
afterAll(() => app.stop());

function barriers<T>(method: string, path: string, tenant: Tenant, body?: unknown, key = org.keys.write) {
  return app.request<Envelope<T>>(method, `/api/security/info-barriers${path}`, {
    key,
    body,
    headers: { 'X-Tenant-Id': tenant.id },
  });
}
const segment = (tenant: Tenant, name: string, attribute: string, value: string) =>
  barriers<SegmentBody>('POST', '/segments', tenant, { name, attribute, value });

/** The repro: "Eng" (department Engineering) and "TitleSeg" (job title Chief Reviewer), Blocked from each other. */
async function engAndTitleSegments() {
  const tenant = await createTenant(app, org.scope);
  const engineers = [
    await createUser(app, tenant, { department: 'Engineering' }),
    await createUser(app, tenant, { department: 'Engineering' }),
  ];
  const eng = await segment(tenant, 'Eng', 'department', 'Engineering');
  expect(eng.status).toBe(201);
  app.clock.advance(1000);
  const title = await segment(tenant, 'TitleSeg', 'jobTitle', 'Chief Reviewer');
  expect(title.status).toBe(201);
  expect(title.body.data.memberCount).toBe(0);
  const block = await barriers('POST', '/policies', tenant, {
    name: 'Wall',
    type: 'Block',
    sourceSegmentId: eng.body.data.id,
    targetSegmentIds: [title.body.data.id],
  });
  expect(block.status).toBe(201);
  return { tenant, engineers, eng: eng.body.data, title: title.body.data };
}

const patchJobTitle = (tenant: Tenant, user: User, jobTitle: string) =>
  app.request('PATCH', `/v1/tenants/${tenant.id}/users/${user.id}`, {
    key: org.keys.write,
    body: { jobTitle },
  });

async function applicationsOf(tenant: Tenant): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    'select count(*)::int as n from info_barrier_applications where tenant_id = $1',
    [tenant.id],
  );
  return rows[0].n;
}
/** Queued apply jobs: this file's alone (the shared server drops every job between files). */
async function applyJobs(): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'info-barrier-apply'`,
  );
  return rows[0].n;
}

describe('segments that overlap after a profile change', () => {
  it('apply is 409 naming the user in both segments (the creation check’s details); nothing is applied', async () => {
    const { tenant, engineers, eng, title } = await engAndTitleSegments();
    const [moved] = engineers;
    expect((await patchJobTitle(tenant, moved, 'Chief Reviewer')).status).toBe(200);

    const jobsBefore = await applyJobs();
    const refused = await barriers<ApplicationBody>('POST', '/apply', tenant);
    expect(refused.status).toBe(409);
    expect(refused.body.success).toBe(false);
    expect(refused.body.error?.code).toBe('CONFLICT');
    expect(refused.body.error?.message).toMatch(/1 user\(s\) are in more than one segment/);
    const named = (segmentId: string, segmentName: string) => ({
      userId: moved.id,
      userPrincipalName: moved.userPrincipalName,
      displayName: moved.displayName,
      segmentId,
      segmentName,
    });
    expect(refused.body.error?.details).toEqual({
      overlapCount: 2,
      overlappingUsers: [named(eng.id, 'Eng'), named(title.id, 'TitleSeg')],
    });
    expect(await applicationsOf(tenant)).toBe(0);
    expect(await applyJobs()).toBe(jobsBefore);
    const status = await barriers<ApplicationBody | null>('GET', '/apply', tenant, undefined, org.keys.read);
    expect(status.body.data).toBeNull();
    expect(await cloudObjects(app, tenant.externalId, 'barrier_policy_set')).toEqual([]);

    // The creation-time check answers a probe segment with the same shape.
    const probe = await segment(tenant, 'Probe', 'department', 'Engineering');
    expect(probe.status).toBe(409);
    expect(Object.keys(probe.body.error?.details ?? {})).toEqual(['overlapCount', 'overlappingUsers']);
    expect(probe.body.error?.details.overlappingUsers).toEqual(
      expect.arrayContaining([named(eng.id, 'Eng'), named(title.id, 'TitleSeg')]),
    );

    // GraphQL refuses the same way.
    const gql = await app.graphql(
      org.keys.write,
      `mutation { applyInformationBarriers(tenantId: "${tenant.id}") { status } }`,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('CONFLICT');
    expect(await applicationsOf(tenant)).toBe(0);

    // Once the user is back in one segment, apply starts.
    expect((await patchJobTitle(tenant, moved, 'Engineer')).status).toBe(200);
    const started = await barriers<ApplicationBody>('POST', '/apply', tenant);
    expect(started.status).toBe(202);
    expect(started.body.data.status).toBe('Pending');
  });

  it('the apply job re-checks at its start: an overlap since the apply fails the application with the reason, nothing pushed', async () => {
    const { tenant, engineers } = await engAndTitleSegments();
    const started = await barriers<ApplicationBody>('POST', '/apply', tenant);
    expect(started.status).toBe(202);

    // Changed in the cloud between accept and run (the cloud is where users are also managed).
    const [moved] = engineers;
    await simulatedCloud(app).updateUser(tenant.externalId, moved.externalId, {
      jobTitle: 'chief reviewer ',
    });
    // A first attempt of five: not retried, it fails at once.
    await onServer(app, 'applyBarriers', org.scope, started.body.data.id, { attempts: 1, max_attempts: 5 });

    const status = await barriers<ApplicationBody>('GET', '/apply', tenant, undefined, org.keys.read);
    expect(status.body.data.status).toBe('Failed');
    expect(status.body.data.failureReason).toBe(
      `1 user(s) are in more than one segment; a user belongs to one segment only, so nothing was applied: ` +
        `${moved.userPrincipalName} in "Eng" and "TitleSeg"`,
    );
    expect(await cloudObjects(app, tenant.externalId, 'barrier_policy_set')).toEqual([]);

    // A failed application does not block the next apply, which now refuses the overlap itself.
    const again = await barriers('POST', '/apply', tenant);
    expect(again.status).toBe(409);
    expect(again.body.error?.details).toMatchObject({ overlapCount: 2 });
  });
});
