import type { Envelope } from '../helpers/envelope.js';
import { createTenant } from '../factories/shared.js';
import { FULL_ROLES } from '../helpers/graph-fake.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { onboardLive, sharedLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * docs/microsoft365.md, "What a customer's consent lacks": a customer's admin consent may grant the app fewer
 * permissions than it asks for. The tenant shows which are missing and which areas that disables, read from the
 * `roles` of its tokens (Graph's and Defender's) at onboarding and at each sync, over GraphQL and REST.
 */
const LACKING = ['User.Invite.All', 'Machine.Isolate'];

interface CloudPermissions {
  checkedAt: string;
  grantedPermissions: string[];
  missingPermissions: string[];
  disabledCapabilities: Array<{ capability: string; missingPermissions: string[] }>;
}

const QUERY = `query Tenant($id: UUID!) {
  tenant(id: $id) {
    cloudPermissions {
      checkedAt grantedPermissions missingPermissions disabledCapabilities { capability missingPermissions }
    }
  }
}`;

let world: LiveWorld<SharedApp>;
let tenantId: string;
beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  const { app, consented } = world.scenario;
  consented.consents.set(app.clientId, { roles: FULL_ROLES.filter((role) => !LACKING.includes(role)) });
  const onboarded = await onboardLive(world, consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  tenantId = onboarded.body.data!.onboardTenant.id;
});
afterAll(() => stopLiveWorld(world));

async function graphqlPermissions(): Promise<CloudPermissions | null> {
  const res = await world.app.graphql<{ tenant: { cloudPermissions: CloudPermissions | null } }>(
    world.key,
    QUERY,
    { id: tenantId },
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.tenant.cloudPermissions;
}

it('onboarding a customer whose consent lacks permissions shows them, and the areas they disable', async () => {
  const permissions = await graphqlPermissions();
  expect(permissions).toMatchObject({
    missingPermissions: ['Machine.Isolate', 'User.Invite.All'],
    disabledCapabilities: [
      { capability: 'guests', missingPermissions: ['User.Invite.All'] },
      { capability: 'deviceActions', missingPermissions: ['Machine.Isolate'] },
    ],
  });
  // Graph's roles and Defender's (its token of Defender's scope) together.
  expect(permissions!.grantedPermissions).toEqual(
    FULL_ROLES.filter((role) => !LACKING.includes(role)).sort(),
  );
  expect(permissions!.grantedPermissions).toContain('Machine.Scan');

  const rest = await world.app.request<Envelope<{ cloudPermissions: CloudPermissions }>>(
    'GET',
    `/v1/tenants/${tenantId}`,
    { key: world.key },
  );
  expect(rest.status).toBe(200);
  expect(rest.body.data.cloudPermissions).toEqual(permissions);
  const list = await world.app.request<Envelope<Array<{ id: string; cloudPermissions: CloudPermissions }>>>(
    'GET',
    '/v1/tenants',
    { key: world.key },
  );
  expect(list.body.data.find((tenant) => tenant.id === tenantId)?.cloudPermissions).toEqual(permissions);
});

it('each sync reads the consent again: a permission granted since shows at once, one withdrawn too', async () => {
  const before = await graphqlPermissions();
  const { app, consented } = world.scenario;
  // User.Invite.All granted since onboarding, Files.ReadWrite.All withdrawn, Machine.Isolate still missing.
  const now = ['Machine.Isolate', 'Files.ReadWrite.All'];
  consented.consents.set(app.clientId, { roles: FULL_ROLES.filter((role) => !now.includes(role)) });
  expect(await syncAndWait(world.app, world.org, tenantId, 60_000, world.key)).toMatchObject({
    status: 'Completed',
  });
  const after = await graphqlPermissions();
  expect(after!.missingPermissions).toEqual(['Files.ReadWrite.All', 'Machine.Isolate']);
  expect(after!.disabledCapabilities).toHaveLength(2);
  expect(after!.disabledCapabilities).toEqual(
    expect.arrayContaining([
      { capability: 'oneDriveTransfer', missingPermissions: ['Files.ReadWrite.All'] },
      { capability: 'deviceActions', missingPermissions: ['Machine.Isolate'] },
    ]),
  );
  expect(Date.parse(after!.checkedAt)).toBeGreaterThanOrEqual(Date.parse(before!.checkedAt));

  // Defender's token is asked for anew too: a cached one (the devices step's, this hour) would still lack it.
  consented.consents.set(app.clientId, { roles: FULL_ROLES });
  await syncAndWait(world.app, world.org, tenantId, 60_000, world.key);
  expect(await graphqlPermissions()).toMatchObject({ missingPermissions: [], disabledCapabilities: [] });
});

it('a sandbox tenant (the simulated cloud grants no permissions one by one) shows none', async () => {
  const sandbox = await createTenant(world.app, world.org.scope);
  expect(await syncAndWait(world.app, world.org, sandbox.id, 60_000)).toMatchObject({ status: 'Completed' });
  const res = await world.app.request<Envelope<{ cloudPermissions: CloudPermissions | null }>>(
    'GET',
    `/v1/tenants/${sandbox.id}`,
    { key: world.org.keys.read },
  );
  expect(res.body.data.cloudPermissions).toBeNull();
});
