import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { ServerProcess } from '../helpers/server-process.js';
import {
  bearer,
  connect,
  emitTestEvent,
  EVENT_FIELDS,
  waitUntilLive,
  type Connection,
} from './subscription-kit.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

// Two server processes on one database: instance A is the in-test server, instance B is `node dist/src/main.js`.
let instanceA: RealmApp;
let instanceB: ServerProcess;
let org: OrganizationWithKeys;
let tenant: Tenant;
const connections: Connection[] = [];

beforeAll(async () => {
  ({ app: instanceA, org, tenant } = await realmSuite({ tenant: { domain: 'contoso.example' } }));
  instanceB = await ServerProcess.start(instanceA.databaseUrl);
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(async () => {
  await instanceB?.stop();
  await instanceA?.stop();
});

function subscriberOn(baseUrl: string) {
  const connection = connect(baseUrl, bearer(org.keys.read));
  connections.push(connection);
  return connection.subscribe('userCreated', `subscription { userCreated { ${EVENT_FIELDS} } }`);
}

/** Probes are committed by this test process: every instance hears them through PostgreSQL, like any event. */
function untilLive(...subscriptions: ReturnType<typeof subscriberOn>[]) {
  return waitUntilLive(subscriptions, (probe) =>
    emitTestEvent(instanceA, org.scope, { kind: 'user.created', details: { probe } }),
  );
}

async function createUserOn(baseUrl: string, userPrincipalName: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/tenants/${tenant.id}/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.keys.write}`, 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Grace', lastName: 'Hopper', userPrincipalName }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

describe('subscription fan-out across server processes', () => {
  it('a mutation on instance A reaches a subscriber on instance B', async () => {
    const onB = subscriberOn(instanceB.baseUrl);
    await untilLive(onB);
    const userId = await createUserOn(instanceA.baseUrl, 'grace.a@contoso.example');
    expect(await onB.nextEvent()).toMatchObject({
      event: 'user.created',
      tenant: { id: tenant.id },
      details: { userId, userPrincipalName: 'grace.a@contoso.example' },
    });
  });

  it('and a mutation on instance B reaches subscribers on both instances', async () => {
    const onA = subscriberOn(instanceA.baseUrl);
    const onB = subscriberOn(instanceB.baseUrl);
    await untilLive(onA, onB);
    const userId = await createUserOn(instanceB.baseUrl, 'grace.b@contoso.example');
    const [fromA, fromB] = await Promise.all([onA.nextEvent(), onB.nextEvent()]);
    expect(fromA).toMatchObject({ event: 'user.created', details: { userId } });
    expect(fromB).toEqual(fromA);
  });
});
