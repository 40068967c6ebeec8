import { PermissionLevel } from '../../src/core/permissions.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import {
  createApiKey,
  createOrganizationWithKeys,
  type OrganizationWithKeys,
  createTenant,
} from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  bearer,
  connect,
  emitTestEvent,
  EVENT_FIELDS,
  waitUntilLive,
  type Connection,
  type WireEvent,
} from './subscription-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let secondTenant: Tenant;
const connections: Connection[] = [];

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: { domain: 'contoso.example' } }));
  secondTenant = await createTenant(app, org.scope, { domain: 'fabrikam.example' });
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(() => app.stop());

function open(params?: Record<string, unknown>): Connection {
  const connection = connect(app.baseUrl, params);
  connections.push(connection);
  return connection;
}

const ALL_EVENTS = `subscription { events { ${EVENT_FIELDS} } }`;
const FILTERED_EVENTS = `subscription($filter: EventFilterInput) { events(filter: $filter) { ${EVENT_FIELDS} } }`;

function tenantRef(of: Tenant) {
  return { id: of.id, name: of.name, domain: of.domain };
}

let upnSequence = 0;
async function createUserOverRest(key = org.keys.write): Promise<string> {
  upnSequence += 1;
  const res = await app.request<{ data: { id: string } }>('POST', `/v1/tenants/${tenant.id}/users`, {
    key,
    body: { firstName: 'Ada', lastName: 'Lovelace', userPrincipalName: `ada${upnSequence}@contoso.example` },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('GraphQL subscriptions over graphql-ws', () => {
  it('delivers the event of a REST mutation to events and userCreated, with the webhook body', async () => {
    const connection = open(bearer(org.keys.read));
    const all = connection.subscribe('events', ALL_EVENTS);
    const created = connection.subscribe('userCreated', `subscription { userCreated { ${EVENT_FIELDS} } }`);
    await waitUntilLive([all, created], (probe) =>
      emitTestEvent(app, org.scope, { kind: 'user.created', details: { probe } }),
    );

    const userId = await createUserOverRest();

    const fromAll = await all.nextEvent();
    const fromKind = await created.nextEvent();
    const { rows } = await app.pool.query<{ payload: WireEvent }>(
      `select payload from domain_events where kind = 'user.created' and payload->'details'->>'userId' = $1`,
      [userId],
    );
    expect(rows).toHaveLength(1);
    // The outbox row is the webhook body; GraphQL spells the severity as its enum name.
    const expected = { ...rows[0].payload, severity: 'INFORMATIONAL' };
    expect(fromAll).toEqual(expected);
    expect(fromKind).toEqual(expected);
    expect(fromAll).toMatchObject({
      event: 'user.created',
      tenant: tenantRef(tenant),
      details: { userId, userPrincipalName: expect.stringMatching(/^ada\d+@contoso\.example$/) },
      actionUrl: expect.stringContaining(userId),
    });
    expect(new Date(fromAll.timestamp).toISOString()).toBe(fromAll.timestamp);
  });

  it('keeps organizations and environments apart: other subscribers receive nothing', async () => {
    const mine = open(bearer(org.keys.read)).subscribe('events', ALL_EVENTS);
    const otherOrganization = open(bearer(other.keys.read)).subscribe('events', ALL_EVENTS);
    const liveEnvironment = open(bearer(org.liveAdminKey)).subscribe('events', ALL_EVENTS);
    await waitUntilLive([mine], (probe) =>
      emitTestEvent(app, org.scope, { kind: 'tenant.synced', details: { probe } }),
    );
    await waitUntilLive([otherOrganization], (probe) =>
      emitTestEvent(app, other.scope, { kind: 'tenant.synced', details: { probe } }),
    );
    await waitUntilLive([liveEnvironment], (probe) =>
      emitTestEvent(app, org.liveScope, { kind: 'tenant.synced', details: { probe } }),
    );

    const userId = await createUserOverRest();
    // Markers committed after the mutation: had the mutation's event reached them, it would come first.
    await emitTestEvent(app, other.scope, {
      kind: 'tenant.synced',
      details: { marker: 'other organization' },
    });
    await emitTestEvent(app, org.liveScope, { kind: 'tenant.synced', details: { marker: 'live' } });

    expect(await mine.nextEvent()).toMatchObject({ event: 'user.created', details: { userId } });
    expect((await otherOrganization.nextEvent()).details).toEqual({ marker: 'other organization' });
    expect((await liveEnvironment.nextEvent()).details).toEqual({ marker: 'live' });
  });

  it('filters by kind wildcard, tenant and minimum severity, like webhooks', async () => {
    const connection = open(bearer(org.keys.read));
    const security = connection.subscribe('events', FILTERED_EVENTS, { filter: { events: ['security.*'] } });
    const firstTenant = connection.subscribe('events', FILTERED_EVENTS, {
      filter: { tenantIds: [tenant.id] },
    });
    const severe = connection.subscribe('events', FILTERED_EVENTS, { filter: { minSeverity: 'HIGH' } });
    const riskySignins = connection.subscribe(
      'securityRiskySignin',
      `subscription($tenantIds: [UUID!]) { securityRiskySignin(tenantIds: $tenantIds, minSeverity: HIGH) { ${EVENT_FIELDS} } }`,
      { tenantIds: [tenant.id] },
    );
    await waitUntilLive([security, firstTenant, severe, riskySignins], (probe) =>
      emitTestEvent(app, org.scope, {
        kind: 'security.risky_signin',
        severity: 'critical',
        tenant: tenantRef(tenant),
        details: { probe },
      }),
    );

    const emit = (kind: string, severity: 'low' | 'medium' | 'high', about: Tenant | null, name: string) =>
      emitTestEvent(app, org.scope, { kind, severity, tenant: about && tenantRef(about), details: { name } });
    await emit('user.updated', 'low', secondTenant, 'matches nothing');
    await emit('security.risky_signin', 'medium', secondTenant, 'security, medium, second tenant');
    await emit('user.deleted', 'low', tenant, 'first tenant, low');
    await emit('license.assigned', 'high', null, 'high, no tenant');
    await emit('security.risky_signin', 'high', tenant, 'matches all');

    const names = async (subscription: typeof security, count: number) => {
      const seen: unknown[] = [];
      for (let index = 0; index < count; index++) seen.push((await subscription.nextEvent()).details.name);
      return seen;
    };
    expect(await names(security, 2)).toEqual(['security, medium, second tenant', 'matches all']);
    expect(await names(firstTenant, 2)).toEqual(['first tenant, low', 'matches all']);
    expect(await names(severe, 2)).toEqual(['high, no tenant', 'matches all']);
    expect(await names(riskySignins, 1)).toEqual(['matches all']);
  });

  it('refuses tenant ids that are not tenants of this organization and environment, as webhooks do (issue #9)', async () => {
    const foreign = await createTenant(app, other.scope);
    const liveOwn = await createTenant(app, org.liveScope);
    const connection = open(bearer(org.keys.read));
    const everything = connection.subscribe('events', FILTERED_EVENTS, {
      filter: { tenantIds: [tenant.id, foreign.id, liveOwn.id] },
    });
    expect(await everything.nextMessage()).toMatchObject({
      kind: 'next',
      errors: [
        {
          extensions: {
            code: 'INVALID_REQUEST',
            details: {
              fields: [
                { field: 'filter.tenantIds[1]', problem: 'is not a tenant of this organization' },
                { field: 'filter.tenantIds[2]', problem: 'is not a tenant of this organization' },
              ],
            },
          },
        },
      ],
    });
    const perKind = connection.subscribe(
      'securityRiskySignin',
      `subscription($tenantIds: [UUID!]) { securityRiskySignin(tenantIds: $tenantIds) { ${EVENT_FIELDS} } }`,
      { tenantIds: [foreign.id] },
    );
    expect(await perKind.nextMessage()).toMatchObject({
      kind: 'next',
      errors: [{ extensions: { code: 'INVALID_REQUEST', details: { fields: [{ field: 'tenantIds[0]' }] } } }],
    });
  });

  it('refuses a bad filter with INVALID_REQUEST naming the field, and keeps the connection', async () => {
    const connection = open(bearer(org.keys.read));
    const typo = connection.subscribe('events', FILTERED_EVENTS, {
      filter: { events: ['user.created', 'user.craeted', 'USER CREATED'] },
    });
    const message = await typo.nextMessage();
    expect(message).toMatchObject({
      kind: 'next',
      errors: [
        {
          extensions: {
            code: 'INVALID_REQUEST',
            details: {
              fields: [
                { field: 'filter.events[1]', problem: expect.stringContaining('matches no event kind') },
                { field: 'filter.events[2]', problem: expect.stringContaining('must be an event kind') },
              ],
            },
          },
        },
      ],
    });

    const broken = connection.subscribe('events', 'subscription { events { id ');
    expect(await broken.nextMessage()).toMatchObject({
      kind: 'error',
      error: [{ extensions: { code: 'INVALID_REQUEST', details: { reason: 'GRAPHQL_PARSE_FAILED' } } }],
    });
    const unknownField = connection.subscribe('events', 'subscription { events { nope } }');
    expect(await unknownField.nextMessage()).toMatchObject({
      kind: 'error',
      error: [{ extensions: { code: 'INVALID_REQUEST', details: { reason: 'GRAPHQL_VALIDATION_FAILED' } } }],
    });

    const healthy = connection.subscribe('events', ALL_EVENTS);
    await waitUntilLive([healthy], (probe) =>
      emitTestEvent(app, org.scope, { kind: 'tenant.synced', details: { probe } }),
    );
  });

  it('answers a subscription sent over HTTP with INVALID_REQUEST (subscriptions need graphql-ws)', async () => {
    const res = await app.graphql(org.keys.read, 'subscription { userCreated { id } }');
    expect(res.body.errors).toMatchObject([
      { extensions: { code: 'INVALID_REQUEST', details: { fields: [{ field: 'operation' }] } } },
    ]);
  });
});

describe('graphql-ws connection_init', () => {
  it.each([
    ['no payload', undefined],
    ['no authorization entry', { token: 'svc_sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['an unknown key', { authorization: 'Bearer svc_sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a malformed header', { authorization: 'Basic abc' }],
  ])('closes the connection with 4403 Forbidden given %s', async (_case, params) => {
    const connection = open(params);
    expect(await connection.closed()).toEqual({ code: 4403, reason: 'Forbidden' });
  });

  it('accepts the key as `Authorization` too, and acknowledges with the rate-limit state', async () => {
    const connection = open({ Authorization: `Bearer ${org.keys.read}` });
    expect(await connection.acknowledged()).toEqual({
      rateLimit: { limit: 1000, remaining: expect.any(Number), reset: expect.any(Number) },
    });
  });

  it('closes the connections of a revoked key with 4403', async () => {
    const key = await createApiKey(app, org.scope, PermissionLevel.READ);
    const connection = open(bearer(key.secret));
    await connection.acknowledged();
    const revoked = await app.graphql(
      org.keys.admin,
      'mutation($id: UUID!) { revokeApiKey(id: $id) { id } }',
      {
        id: key.id,
      },
    );
    expect(revoked.body.errors).toBeUndefined();
    expect(await connection.closed()).toEqual({ code: 4403, reason: 'Forbidden: API key revoked' });
  });

  it('counts connection_init and each subscribe against the organization rate limit', async () => {
    const limited = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM, customRateLimitPerMinute: 3 });
    const connection = open(bearer(limited.keys.read)); // 1
    expect(await connection.acknowledged()).toMatchObject({ rateLimit: { limit: 3, remaining: 2 } });
    const first = connection.subscribe('events', ALL_EVENTS); // 2
    const second = connection.subscribe('userCreated', `subscription { userCreated { ${EVENT_FIELDS} } }`); // 3
    await waitUntilLive([first, second], (probe) =>
      emitTestEvent(app, limited.scope, { kind: 'user.created', details: { probe } }),
    );
    const third = connection.subscribe('events', ALL_EVENTS); // 4: over the limit
    expect(await third.nextMessage()).toMatchObject({
      kind: 'error',
      error: [{ extensions: { code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } } }],
    });
    const rest = await app.request('GET', '/v1/tenants', { key: limited.keys.read });
    expect(rest.status).toBe(429);
    const refused = open(bearer(limited.keys.read));
    expect(await refused.closed()).toMatchObject({
      code: 4429,
      reason: expect.stringMatching(/^Rate limit exceeded/),
    });
  });
});
