import { createHash } from 'node:crypto';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

const CREATE =
  'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id name level prefix lastFour } } }';

describe('API key management over GraphQL', () => {
  it('creates a key shown once, stores only its hash, and lists it without the secret', async () => {
    const res = await app.graphql<{
      createApiKey: {
        secret: string;
        apiKey: { id: string; prefix: string; lastFour: string; level: string };
      };
    }>(org.keys.admin, CREATE, { input: { name: 'PSA sync', level: 'WRITE' } });
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data!.createApiKey;
    expect(created.secret).toMatch(/^svc_sk_test_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({
      prefix: 'svc_sk_test_',
      lastFour: created.secret.slice(-4),
      level: 'WRITE',
    });

    const {
      rows: [stored],
    } = await app.pool.query<{ secret_hash: string }>('select * from api_keys where id = $1', [
      created.apiKey.id,
    ]);
    expect(stored.secret_hash).toBe(createHash('sha256').update(created.secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(created.secret);

    const list = await app.graphql<{ apiKeys: { items: Array<Record<string, unknown>> } }>(
      org.keys.admin,
      '{ apiKeys { items { id name lastFour } } }',
    );
    expect(list.body.data!.apiKeys.items).toEqual(
      expect.arrayContaining([
        { id: created.apiKey.id, name: 'PSA sync', lastFour: created.secret.slice(-4) },
      ]),
    );
    expect(JSON.stringify(list.body)).not.toContain(created.secret);

    // The new key works at its level: Write may sync, not manage keys.
    const asNewKey = await app.graphql(created.secret, '{ apiKeys { items { id } } }');
    expect(asNewKey.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it.each(['read', 'write'] as const)('refuses key management to a %s key (403)', async (level) => {
    const res = await app.graphql(org.keys[level], CREATE, { input: { name: 'x', level: 'ADMIN' } });
    expect(res.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const list = await app.graphql(org.keys[level], '{ apiKeys { items { id } } }');
    expect(list.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses a blank name with INVALID_REQUEST naming the field', async () => {
    const res = await app.graphql(org.keys.admin, CREATE, { input: { name: '', level: 'READ' } });
    expect(res.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [expect.objectContaining({ field: 'name' })] },
    });
  });

  it("cannot list or revoke another organization's keys (404)", async () => {
    const theirs = await app.graphql<{ apiKeys: { items: Array<{ id: string }> } }>(
      other.keys.admin,
      '{ apiKeys { items { id } } }',
    );
    const theirId = theirs.body.data!.apiKeys.items[0].id;
    const mine = await app.graphql<{ apiKeys: { items: Array<{ id: string }> } }>(
      org.keys.admin,
      '{ apiKeys { items { id } } }',
    );
    expect(mine.body.data!.apiKeys.items.map((k) => k.id)).not.toContain(theirId);
    const revoke = await app.graphql(
      org.keys.admin,
      'mutation($id: UUID!) { revokeApiKey(id: $id) { id } }',
      { id: theirId },
    );
    expect(revoke.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
