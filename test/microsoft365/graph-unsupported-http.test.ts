import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { contactInput, createContact } from '../contacts/contact-kit.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createUser } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import {
  FULL_ROLES,
  startGraphScenario,
  useGraphAreasOf,
  type GraphScenario,
} from '../helpers/graph-fake.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { identity, scalar, softDelete } from '../users/deleted-user-kit.js';

/**
 * Areas Microsoft Graph v1.0 has no API for, through the API of a tenant whose areas come from Graph
 * (graph-areas.ts): 501 NOT_SUPPORTED naming the capability and the provider, on REST (the answer the
 * OpenAPI document lists, checked by TestApp on every response) and GraphQL; nothing written, no Graph call.
 */
let app: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let scenario: GraphScenario;

beforeAll(async () => {
  ({ app, org, tenant } = await realmSuite({ tenant: true }));
  scenario = await startGraphScenario();
  const upstream = scenario.fake.state.addTenant({ id: tenant.externalId });
  upstream.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
  await useGraphAreasOf(app, scenario, tenant.externalId, upstream);
});
afterAll(async () => {
  await scenario.fake.stop();
  await app.stop();
});
beforeEach(() => scenario.fake.clearRequests());

const notSupported = (capability: string) => ({
  success: false,
  error: {
    code: 'NOT_SUPPORTED',
    message: expect.stringContaining(`capability "${capability}", provider microsoft365`),
    details: { capability, provider: 'microsoft365' },
  },
});

it('creating a mail contact answers 501 mailContacts over REST and GraphQL, and stores nothing', async () => {
  const rest = await createContact(app, org.keys.write, tenant.id, contactInput('ada@example.org'));
  expect(rest.status).toBe(501);
  expect(rest.body).toMatchObject(notSupported('mailContacts'));
  const graphql = await app.graphql(
    org.keys.write,
    'mutation($tenantId: UUID!, $input: ContactInput!) { createContact(tenantId: $tenantId, input: $input) { id } }',
    { tenantId: tenant.id, input: contactInput('ada@example.org') },
  );
  expect(graphql.body.errors?.[0].extensions).toMatchObject({
    code: 'NOT_SUPPORTED',
    details: { capability: 'mailContacts', provider: 'microsoft365' },
  });
  expect(await scalar(app, 'select count(*) as n from contacts where tenant_id = $1', [tenant.id])).toBe(0);
  expect(scenario.fake.graphCalls()).toEqual([]);
});

it('listing restricted senders answers 501 restrictedSenders', async () => {
  const res = await app.request<Envelope<unknown>>('GET', '/api/exchange/restricted-users', {
    key: org.keys.read,
    headers: { 'X-Tenant-Id': tenant.id },
  });
  expect(res.status).toBe(501);
  expect(res.body).toMatchObject(notSupported('restrictedSenders'));
});

it('a deleted user’s OneDrive answers 501 deletedUserOneDrive', async () => {
  const user = await createUser(app, tenant);
  await softDelete(app, org.keys.admin, tenant, user);
  const res = await identity(app, 'GET', `/users/${user.id}/onedrive`, {
    key: org.keys.read,
    tenantId: tenant.id,
  });
  expect(res.status).toBe(501);
  expect(res.body).toMatchObject(notSupported('deletedUserOneDrive'));
});
