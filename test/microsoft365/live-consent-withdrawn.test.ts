import type { Envelope } from '../helpers/envelope.js';
import { onboardLive, sharedLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * A customer withdraws its consent while our app still holds a cached token for its tenant (tokens live an
 * hour; only onboarding and the sync ask Entra ID afresh). Graph refuses that token (401: the fake revokes the
 * tokens of a withdrawn consent); the client asks Entra ID for a new one, which is refused as not consented,
 * and answers CONSENT_REQUIRED naming the tenant: 403 in a request, nothing written here or upstream.
 * docs/microsoft365.md, "Tokens, throttling and errors".
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
beforeAll(async () => {
  world = await sharedLiveWorld();
  const onboarded = await onboardLive(world, world.scenario.consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  tenantId = onboarded.body.data!.onboardTenant.id;
});
afterAll(() => stopLiveWorld(world));

function createUser(upn: string) {
  return world.app.request<Envelope<{ id: string }>>('POST', `/v1/tenants/${tenantId}/users`, {
    key: world.key,
    body: {
      firstName: 'Cached',
      lastName: 'Token',
      userPrincipalName: upn,
      password: 'Correct-Horse-Battery-9',
      usageLocation: 'US',
    },
  });
}

async function ourUsers(upn: string): Promise<number> {
  const { rows } = await world.app.pool.query<{ n: string }>(
    'select count(*) as n from users where tenant_id = $1 and user_principal_name = $2',
    [tenantId, upn],
  );
  return Number(rows[0].n);
}

const upstreamUsers = (upn: string) =>
  world.scenario.consented.users.filter((record) => record.user.userPrincipalName === upn).length;

it('a cached token Graph refuses while the consent holds is renewed once, and the call goes through', async () => {
  const { fake } = world.scenario;
  fake.state.tokens.clear(); // Graph no longer accepts the token MSAL has cached (a key rollover, say)
  fake.clearRequests();
  const created = await createUser('renewed.token@fabrikam.com');
  expect(created.status).toBe(201);
  expect(fake.graphCalls()).toEqual(['POST /v1.0/users', 'POST /v1.0/users']);
  expect(fake.requests.filter((request) => request.service === 'graph').map((r) => r.status)).toEqual([
    401, 201,
  ]);
  expect(fake.tokenRequests().map((request) => request.tenantId)).toEqual([world.scenario.consented.id]);
  expect(upstreamUsers('renewed.token@fabrikam.com')).toBe(1);
});

it('after the consent is withdrawn, a cached token is refused: 403 CONSENT_REQUIRED naming the tenant, nothing written', async () => {
  const { fake, consented, app } = world.scenario;
  // Warm: the next call's token is in MSAL's cache, and Graph accepted it a moment ago.
  expect((await createUser('before.withdrawal@fabrikam.com')).status).toBe(201);
  consented.consents.set(app.clientId, 'consent-missing');
  fake.clearRequests();

  const refused = await createUser('after.withdrawal@fabrikam.com');
  expect(refused.status).toBe(403);
  expect(refused.body.error).toMatchObject({
    code: 'FORBIDDEN',
    details: { reason: 'CONSENT_REQUIRED', externalId: consented.id },
  });
  expect(refused.body.error?.message).toContain(
    `customer tenant ${consented.id} no longer grants the app access`,
  );
  // The one write Graph refused (401: not carried out), one fresh token request refused (AADSTS65001), no retry.
  expect(fake.graphCalls()).toEqual(['POST /v1.0/users']);
  expect(fake.requests.find((request) => request.service === 'graph')?.status).toBe(401);
  expect(fake.tokenRequests().map((request) => request.tenantId)).toEqual([consented.id]);
  expect(upstreamUsers('after.withdrawal@fabrikam.com')).toBe(0);
  expect(await ourUsers('after.withdrawal@fabrikam.com')).toBe(0);
});
