import type { DataOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { FULL_ROLES } from '../helpers/graph-fake.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { um } from '../user-management/um-kit.js';
import { onboardAndSyncLive, sharedLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * docs/microsoft365.md, "Re-consent when the app gains a permission": the connection shows the permissions
 * the partner token lacks, per area, until a new test sees them granted; a customer that has not consented
 * again refuses the calls that need them (a job step fails with Graph's reason, nothing changed), and its
 * next token after the new consent (a sync takes one) carries them.
 */
const NEW_PERMISSIONS = ['MailboxSettings.ReadWrite', 'Files.ReadWrite.All'];
const BEFORE = FULL_ROLES.filter((role) => !NEW_PERMISSIONS.includes(role));

let world: LiveWorld<SharedApp>;
let tenantId: string;
beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  const { app: fakeApp, partner, consented } = world.scenario;
  // The app as it was before it gained the two permissions, in the partner tenant and at the customer.
  partner.consents.set(fakeApp.clientId, { roles: BEFORE });
  consented.consents.set(fakeApp.clientId, { roles: BEFORE });
  ({ tenantId } = await onboardAndSyncLive(world));
});
afterAll(() => stopLiveWorld(world));

interface ConnectionView {
  grantedPermissions: string[];
  capabilities: Array<{ capability: string; missingPermissions: string[] }>;
}

async function retest(): Promise<Map<string, string[]>> {
  const tested = await world.app.request<Envelope<ConnectionView>>(
    'POST',
    '/api/settings/cloud-connection/test',
    {
      key: world.key,
    },
  );
  expect(tested.status).toBe(200);
  const read = await world.app.request<Envelope<ConnectionView>>('GET', '/api/settings/cloud-connection', {
    key: world.key,
  });
  return new Map(read.body.data.capabilities.map((c) => [c.capability, c.missingPermissions]));
}

type OffboardingBody = DataOf<'getUserOffboarding'>;

async function offboardingOf(userId: string, id: string): Promise<OffboardingBody> {
  return (
    await um<OffboardingBody>(world.app, 'GET', `/${userId}/offboard/${id}`, { key: world.key, tenantId })
  ).body.data;
}

it('the connection lists the permissions the partner token lacks until the partner consents again', async () => {
  const missing = await retest();
  expect(missing.get('autoReplies')).toEqual(['MailboxSettings.ReadWrite']);
  expect(missing.get('oneDriveTransfer')).toEqual(['Files.ReadWrite.All']);
  expect(missing.get('users')).toEqual([]);

  world.scenario.partner.consents.set(world.scenario.app.clientId, { roles: FULL_ROLES });
  const after = await retest();
  expect(after.get('autoReplies')).toEqual([]);
  expect(after.get('oneDriveTransfer')).toEqual([]);
});

it('a customer that has not consented again refuses the step; after its consent, the next token carries it', async () => {
  const { rows } = await world.app.pool.query<{ id: string; external_id: string }>(
    "select id, external_id from users where tenant_id = $1 and user_principal_name = 'lee.gu@fabrikam.com'",
    [tenantId],
  );
  const [{ id: userId, external_id: externalId }] = rows;
  const started = await um<OffboardingBody>(world.app, 'POST', `/${userId}/offboard`, {
    key: world.key,
    tenantId,
    body: { convertMailboxToShared: false, removeLicenses: false, autoReplyMessage: 'Lee has left.' },
  });
  expect(started.status).toBe(202);
  const id = started.body.data.id;
  await eventually(async () => expect((await offboardingOf(userId, id)).status).toBe('Failed'), {
    timeout: 60_000,
    what: 'the offboarding to fail at its automatic reply',
  });
  const failed = (await offboardingOf(userId, id)).steps.find((step) => step.name === 'setAutoReply')!;
  expect(failed).toMatchObject({ status: 'Failed', error: expect.stringMatching(/Insufficient privileges/) });
  expect(fakeAreaState(world.scenario.consented).autoReplies.has(externalId)).toBe(false);

  // The customer's administrator opens the admin-consent URL again; the next sync takes a fresh token.
  world.scenario.consented.consents.set(world.scenario.app.clientId, { roles: FULL_ROLES });
  expect(await syncAndWait(world.app, world.org, tenantId, 60_000, world.key)).toMatchObject({
    status: 'Completed',
  });
  const retried = await um<OffboardingBody>(world.app, 'POST', `/${userId}/offboard/${id}/retry`, {
    key: world.key,
    tenantId,
  });
  expect(retried.status).toBe(202);
  await eventually(async () => expect((await offboardingOf(userId, id)).status).toBe('Completed'), {
    timeout: 60_000,
    what: 'the retried offboarding to complete',
  });
  expect(fakeAreaState(world.scenario.consented).autoReplies.get(externalId)).toMatchObject({
    status: 'alwaysEnabled',
  });
});
