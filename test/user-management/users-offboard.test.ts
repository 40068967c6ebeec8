import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { cloudObjects, userRow } from '../users/user-test-kit.js';
import {
  type OrganizationWithKeys,
  createGroup,
  createSku,
  createUser,
  giveLicense,
} from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { um } from './um-kit.js';
import type { DataOf } from '../helpers/api-types.js';
import { gatedProvider } from '../helpers/cloud-gate.js';
import { eventually } from '../helpers/eventually.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

type OffboardingBody = DataOf<'getUserOffboarding'>;

const cloud = () => (app.deps.clouds as SimulatedCloud).userManagement;

/** A leaver with a manager, a license and a group. */
async function leaver(): Promise<{ user: User; manager: User }> {
  const manager = await createUser(app, tenant, { firstName: 'Mona', lastName: 'Manager' });
  const user = await createUser(app, tenant, { managerId: manager.id });
  const sku = await createSku(app, tenant, { total: 5 });
  await giveLicense(app, tenant, user, sku);
  await createGroup(app, tenant, { displayName: 'Everyone', members: [user, manager] });
  return { user, manager };
}

function offboard(user: User, body: unknown, key = org.keys.admin) {
  return um<OffboardingBody>(app, 'POST', `/${user.id}/offboard`, { key, tenantId: tenant.id, body });
}

async function run(user: User, id: string): Promise<OffboardingBody> {
  await onServer(app, 'runOffboarding', { offboardingId: id, ...org.scope });
  const res = await um<OffboardingBody>(app, 'GET', `/${user.id}/offboard/${id}`, {
    key: org.keys.read,
    tenantId: tenant.id,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

const statuses = (body: OffboardingBody) => Object.fromEntries(body.steps.map((s) => [s.name, s.status]));

describe('POST /api/user-management-identity/users/:userId/offboard', () => {
  it('runs every step in order and leaves the user offboarded upstream and here', async () => {
    const { user, manager } = await leaver();
    const started = await offboard(user, {
      delegateMailboxTo: manager.id,
      autoReplyMessage: 'I have left; please write to Mona.',
      transferFilesTo: 'manager',
      deleteUser: true,
    });
    expect(started.status).toBe(202);
    expect(started.body.data.status).toBe('Queued');
    expect(started.body.data.steps.map((s) => s.name)).toEqual([
      'blockSignIn',
      'revokeSessions',
      'convertMailbox',
      'setAutoReply',
      'transferFiles',
      'removeGroups',
      'removeLicenses',
      'deleteUser',
    ]);
    const files = await cloud().listDriveItems(tenant.externalId, user.externalId, { offset: 0, limit: 100 });
    const done = await run(user, started.body.data.id);
    expect(done.status).toBe('Completed');
    expect(done.steps.every((s) => s.status === 'Succeeded' && s.attempts === 1)).toBe(true);
    expect(done.steps.find((s) => s.name === 'transferFiles')?.result).toBe(
      `${files.total} file(s) moved to ${manager.userPrincipalName}`,
    );

    // Upstream: shared mailbox delegated to the manager with the reply, files with the manager, no groups.
    expect(await cloud().getMailbox(tenant.externalId, user.externalId)).toEqual({
      userExternalId: user.externalId,
      type: 'Shared',
      delegateExternalIds: [manager.externalId],
      autoReply: 'I have left; please write to Mona.',
    });
    const managersFiles = await cloud().listDriveItems(tenant.externalId, manager.externalId, {
      offset: 0,
      limit: 100,
    });
    expect(managersFiles.items.filter((f) => f.path.startsWith('/Transferred from'))).toHaveLength(
      files.total,
    );
    const groups = await cloudObjects(app, tenant.externalId, 'group');
    expect(groups[0].memberExternalIds).toEqual([manager.externalId]);
    expect(await cloudObjects(app, tenant.externalId, 'assignment')).toEqual([]);
    // Here: disabled, sessions revoked, soft-deleted; the events followed the steps.
    const row = await userRow(app, user.id);
    expect(row).toMatchObject({ account_status: 'Disabled' });
    expect(row.deleted_at).not.toBeNull();
    expect(row.sessions_revoked_at).not.toBeNull();
    // Each step commits its own transaction: ordered by transaction id, the events follow the steps.
    const { rows: events } = await app.pool.query<{ kind: string }>(
      `select kind from domain_events where payload->'details'->>'userId' = $1 order by xmin::text::bigint`,
      [user.id],
    );
    expect(events.map((e) => e.kind)).toEqual([
      'user.updated',
      'user.updated',
      'license.removed',
      'user.deleted',
    ]);
  });

  it('a step failing upstream stops before the licenses; a retry resumes from it without repeating the others', async () => {
    const { user } = await leaver();
    await cloud().failNext(tenant.externalId, 'convertMailboxToShared', 'mailbox service busy');
    const started = await offboard(user, {}, org.keys.write);
    const failed = await run(user, started.body.data.id);
    expect(failed.status).toBe('Failed');
    expect(failed.failureReason).toMatch(/convertMailbox.*mailbox service busy/);
    expect(statuses(failed)).toMatchObject({
      blockSignIn: 'Succeeded',
      revokeSessions: 'Succeeded',
      convertMailbox: 'Failed',
      setAutoReply: 'Skipped',
      removeGroups: 'Pending',
      removeLicenses: 'Pending',
      deleteUser: 'Skipped',
    });
    // The licenses were not touched: the mailbox is not shared yet.
    expect(await cloudObjects(app, tenant.externalId, 'assignment')).toHaveLength(1);

    const second = await offboard(user, {}, org.keys.write);
    expect(second.status).toBe(202); // a Failed offboarding does not block a new one (docs/user-management.md)
    await run(user, second.body.data.id);

    const retry = await um<OffboardingBody>(
      app,
      'POST',
      `/${user.id}/offboard/${started.body.data.id}/retry`,
      {
        key: org.keys.write,
        tenantId: tenant.id,
      },
    );
    expect(retry.status).toBe(202);
    expect(retry.body.data.status).toBe('Queued');
    const done = await run(user, started.body.data.id);
    expect(done.status).toBe('Completed');
    const attempts = Object.fromEntries(done.steps.map((s) => [s.name, s.attempts]));
    expect(attempts).toMatchObject({
      blockSignIn: 1,
      revokeSessions: 1,
      convertMailbox: 2,
      removeLicenses: 1,
    });
    const again = await um(app, 'POST', `/${user.id}/offboard/${started.body.data.id}/retry`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.details).toEqual({ from: 'Completed', to: 'Queued', allowed: ['Failed'] });
  });

  it('a second offboarding while one is queued is 409, also when both arrive at once', async () => {
    const { user } = await leaver();
    const [a, b] = await Promise.all([offboard(user, {}), offboard(user, {})]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.body.error?.details.offboardingId).toBe((a.status === 202 ? a : b).body.data.id);
    const { rows } = await app.pool.query(
      'select count(*)::int as n from user_offboardings where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('bad options are 400 naming the field with nothing written; deleteUser needs Admin; 404 across organizations', async () => {
    const { user } = await leaver();
    const bad = await offboard(user, { convertMailboxToShared: false, transferFilesTo: 'nobody' });
    expect(bad.status).toBe(400);
    expect((bad.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field)).toEqual([
      'removeLicenses',
      'transferFilesTo',
    ]);
    const self = await offboard(user, { delegateMailboxTo: user.id });
    expect(self.status).toBe(400);
    expect((await offboard(user, { deleteUser: true }, org.keys.write)).status).toBe(403);
    expect((await offboard(user, {}, org.keys.read)).status).toBe(403);
    const foreign = await um(app, 'POST', `/${user.id}/offboard`, {
      key: other.keys.admin,
      tenantId: tenant.id,
      body: {},
    });
    expect(foreign.status).toBe(404);
    const { rows } = await app.pool.query(
      'select count(*)::int as n from user_offboardings where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('GraphQL offboardUser and userOffboarding', async () => {
    const { user } = await leaver();
    const started = await app.graphql<{ offboardUser: { id: string; status: string } }>(
      org.keys.write,
      `mutation($t: UUID!, $u: UUID!) { offboardUser(tenantId: $t, userId: $u, input: { removeFromGroups: false }) {
        id status } }`,
      { t: tenant.id, u: user.id },
    );
    const id = started.body.data!.offboardUser.id;
    await onServer(app, 'runOffboarding', { offboardingId: id, ...org.scope });
    const read = await app.graphql<{
      userOffboarding: { status: string; steps: Array<{ name: string; status: string }> };
    }>(
      org.keys.read,
      `query($t: UUID!, $u: UUID!, $id: UUID!) { userOffboarding(tenantId: $t, userId: $u, id: $id) {
        status steps { name status } } }`,
      { t: tenant.id, u: user.id, id },
    );
    expect(read.body.data?.userOffboarding.status).toBe('COMPLETED');
    expect(read.body.data?.userOffboarding.steps.find((s) => s.name === 'REMOVE_GROUPS')?.status).toBe(
      'SKIPPED',
    );
  });
});

describe('an offboarding killed between its group removals at the cloud and their save (issue #34 item 1)', () => {
  it('the resumed run records every group left and its "groups" user.updated event, once', async () => {
    const { user, manager } = await leaver();
    await createGroup(app, tenant, { displayName: 'Finance', members: [user, manager] });
    const started = await offboard(user, {});
    expect(started.status).toBe(202);
    const id = started.body.data.id;
    // The first run removes the user from both groups at the cloud, then "dies" before saving (held for good).
    let removals = 0;
    const dying = gatedProvider(
      app.deps.clouds,
      () => undefined,
      (path) =>
        /removeGroupMember$/.test(path) && ++removals === 2 ? new Promise(() => undefined) : undefined,
    );
    void onServer(app, 'runOffboarding', { offboardingId: id, ...org.scope }, undefined, dying).catch(
      () => undefined,
    );
    await eventually(async () => expect(removals).toBe(2));

    expect((await run(user, id)).status).toBe('Completed');
    const { rows } = await app.pool.query<{ left: string[] }>(
      `select payload->'details'->'groupsLeft' as left from domain_events
        where kind = 'user.updated' and payload->'details'->>'userId' = $1 and payload->'details'->'groupsLeft' is not null`,
      [user.id],
    );
    // The old step deleted each membership right after its cloud call: the resumed run saw only the last group.
    expect(rows).toHaveLength(1);
    expect([...rows[0].left].sort()).toEqual(['Everyone', 'Finance']);
  });
});

describe('a step the cloud throttles', () => {
  it('waits for the queue (Waiting, retryAt) and fails on its last attempt; a retry resumes at that step', async () => {
    const { user } = await leaver();
    const simulated = app.deps.clouds as SimulatedCloud;
    simulated.faults.inject(tenant.externalId, 'directory.revokeSessions', {
      kind: 'Throttled',
      retryAfterSeconds: 120,
      times: 2,
    });
    const started = await offboard(user, {}, org.keys.write);
    const payload = { offboardingId: started.body.data.id, ...org.scope };
    const read = async () =>
      (
        await um<OffboardingBody>(app, 'GET', `/${user.id}/offboard/${started.body.data.id}`, {
          key: org.keys.read,
          tenantId: tenant.id,
        })
      ).body.data;
    const step = (body: OffboardingBody, name: string) => body.steps.find((s) => s.name === name)!;

    // The queue's first attempt of five: the throttle goes to the queue (retried after the Retry-After).
    await expect(
      onServer(app, 'runOffboarding', payload, { attempts: 1, max_attempts: 5 }),
    ).rejects.toMatchObject({ kind: 'Throttled', retryAfterSeconds: 120 });
    const waiting = await read();
    expect(waiting).toMatchObject({ status: 'Running', failureReason: null });
    expect(statuses(waiting)).toMatchObject({ blockSignIn: 'Succeeded', revokeSessions: 'Waiting' });
    const wait = step(waiting, 'revokeSessions');
    expect(wait.error).toMatch(/Throttled/);
    expect(Date.parse(wait.retryAt!) - Date.parse(wait.finishedAt!)).toBe(120_000);

    // Its last attempt: the wait is over, the step and the offboarding fail, saying so.
    await onServer(app, 'runOffboarding', payload, { attempts: 5, max_attempts: 5 });
    const failed = await read();
    expect(failed.status).toBe('Failed');
    expect(failed.failureReason).toMatch(
      /^Step revokeSessions failed: gave up after 5 attempts: .*Throttled/,
    );
    expect(step(failed, 'revokeSessions')).toMatchObject({ status: 'Failed', attempts: 2, retryAt: null });

    const retry = await um(app, 'POST', `/${user.id}/offboard/${started.body.data.id}/retry`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(retry.status).toBe(202);
    await onServer(app, 'runOffboarding', payload, { attempts: 1, max_attempts: 5 });
    const done = await read();
    expect(done.status).toBe('Completed');
    // Sign-in was blocked once; the throttled step ran three times, the last one through.
    expect(Object.fromEntries(done.steps.map((s) => [s.name, s.attempts]))).toMatchObject({
      blockSignIn: 1,
      revokeSessions: 3,
      convertMailbox: 1,
    });
    expect(done.steps.every((s) => s.retryAt === null)).toBe(true);
  });
});
