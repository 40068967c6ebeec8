import { createHash } from 'node:crypto';
import type { DataOf, ItemOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

type ClientBody = ItemOf<'listOAuthClients'>;

const register = (key: string, body: unknown) =>
  app.request<Envelope<DataOf<'createOAuthClient'>>>('POST', '/api/settings/oauth-clients', { key, body });

describe('OAuth client registration (settings area, Admin)', () => {
  it('registers a client (201) whose secret is shown once and stored hashed; lists it; revokes it', async () => {
    const created = await register(org.keys.admin, {
      name: 'PSA',
      redirectUris: ['https://psa.example.com/callback', 'http://localhost:8080/cb'],
    });
    expect(created.status).toBe(201);
    const { client, clientId, clientSecret } = created.body.data;
    expect(client).toMatchObject({ clientId, name: 'PSA', environment: 'sandbox', revokedAt: null });
    expect(clientSecret).toMatch(/^svc_cs_[A-Za-z0-9_-]{43}$/);
    const {
      rows: [stored],
    } = await app.pool.query<{ secret_hash: string }>('select secret_hash from oauth_clients where id = $1', [
      client.id,
    ]);
    expect(stored.secret_hash).toBe(createHash('sha256').update(clientSecret).digest('hex'));

    const listed = await app.request<Envelope<ClientBody[]>>('GET', '/v1/api/settings/oauth-clients', {
      key: org.keys.admin,
    });
    expect(listed.body.meta?.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ clientId, environment: 'sandbox' });
    expect(JSON.stringify(listed.body)).not.toContain(clientSecret);

    const revoked = await app.request<Envelope<ClientBody>>(
      'DELETE',
      `/api/settings/oauth-clients/${client.id}`,
      {
        key: org.keys.admin,
      },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
  });

  it('registers live clients with a live key', async () => {
    const created = await register(org.liveAdminKey, {
      name: 'Live PSA',
      redirectUris: ['https://psa.example.com/cb'],
    });
    expect(created.body.data.client.environment).toBe('live');
  });

  it.each([
    ['plain http to a public host', 'http://psa.example.com/cb'],
    ['a fragment', 'https://psa.example.com/cb#x'],
    ['a relative URI', '/callback'],
    ['another scheme', 'ftp://psa.example.com/cb'],
  ])('refuses %s with 400 naming the URI', async (_case, uri) => {
    const res = await register(org.keys.admin, {
      name: 'Bad',
      redirectUris: ['https://ok.example.com/cb', uri],
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'redirectUris.1' })]);
  });

  it('refuses no redirect URI and a blank name, naming both', async () => {
    const res = await register(org.keys.admin, { name: ' ', redirectUris: [] });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([
      expect.objectContaining({ field: 'name' }),
      expect.objectContaining({ field: 'redirectUris' }),
    ]);
  });

  it.each(['read', 'write'] as const)('is refused to a %s key (403)', async (level) => {
    expect(
      (await register(org.keys[level], { name: 'x', redirectUris: ['https://x.example.com'] })).status,
    ).toBe(403);
    expect((await app.request('GET', '/api/settings/oauth-clients', { key: org.keys[level] })).status).toBe(
      403,
    );
  });

  it("answers 404 for another organization's client", async () => {
    const other = await createOrganizationWithKeys(app);
    const theirs = await register(other.keys.admin, {
      name: 'Theirs',
      redirectUris: ['https://x.example.com'],
    });
    const res = await app.request('DELETE', `/api/settings/oauth-clients/${theirs.body.data.client.id}`, {
      key: org.keys.admin,
    });
    expect(res.status).toBe(404);
  });

  it('registers over GraphQL too', async () => {
    const res = await app.graphql<{
      createOAuthClient: { clientId: string; clientSecret: string; client: { name: string } };
    }>(
      org.keys.admin,
      'mutation { createOAuthClient(input: { name: "GQL app", redirectUris: ["https://gql.example.com/cb"] }) { clientId clientSecret client { name environment } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.createOAuthClient.client).toEqual({ name: 'GQL app', environment: 'SANDBOX' });
  });
});
