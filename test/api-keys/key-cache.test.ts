import { PermissionLevel } from '../../src/core/permissions.js';
import { createApiKey, type OrganizationWithKeys } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, realmApp, type RealmApp } from '../helpers/realm-suite.js';

/**
 * The in-process API key cache (src/api-keys/api-key.auth.ts) keeps keys for minutes (issue #31: a reload was a
 * round trip every 5 s): revocation must still be refused at once everywhere, by NOTIFY in the other
 * processes, and nothing is cached while that channel is down.
 */
let app: RealmApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await realmSuite()));
afterAll(() => app.stop());

const revokeBySql = (id: string) =>
  app.pool.query('update api_keys set revoked_at = now() where id = $1', [id]);

it('a key revoked through one server is refused at once by another that had it cached', async () => {
  const second = await realmApp({ databaseUrl: app.databaseUrl });
  try {
    const key = await createApiKey(app, org.scope, PermissionLevel.READ);
    const list = (server: RealmApp) => server.request('GET', '/v1/tenants', { key: key.secret });
    expect((await list(second)).status).toBe(200); // now cached in the second server, for minutes
    const revoked = await app.request('DELETE', `/api/settings/api-keys/${key.id}`, { key: org.keys.admin });
    expect(revoked.status).toBe(200);
    // The NOTIFY arrives after the revoking commit: milliseconds, far from the cache's lifetime.
    await eventually(async () => expect((await list(second)).status).toBe(401), { timeout: 2_000 });
  } finally {
    await second.stop();
  }
});

describe('the authenticator on its own', () => {
  /** A new authenticator (src/api-keys/api-key.auth.ts) on the server's ORM and clock, made by the server. */
  const authenticator = () => onServer(app, 'apiKeyAuthenticator');

  it('caches nothing while the LISTEN connection is down: a revocation it cannot hear is still seen', async () => {
    const keys = await authenticator();
    const key = await createApiKey(app, org.scope, PermissionLevel.READ);
    expect((await keys.authenticate(key.secret, '127.0.0.1')).ok).toBe(true);
    keys.setListening(false);
    expect((await keys.authenticate(key.secret, '127.0.0.1')).ok).toBe(true);
    await revokeBySql(key.id); // no NOTIFY: only a fresh read can know
    expect(await keys.authenticate(key.secret, '127.0.0.1')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('does not cache a key read before a revocation it heard of while reading', async () => {
    const keys = await authenticator();
    const key = await createApiKey(app, org.scope, PermissionLevel.READ);
    const reading = keys.authenticate(key.secret, '127.0.0.1'); // the row is read as not revoked...
    keys.forget(key.id); // ...while the revocation's NOTIFY arrives
    expect((await reading).ok).toBe(true);
    await revokeBySql(key.id);
    expect(await keys.authenticate(key.secret, '127.0.0.1')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('keeps a key it heard nothing about: no read per request', async () => {
    const keys = await authenticator();
    const key = await createApiKey(app, org.scope, PermissionLevel.READ);
    expect((await keys.authenticate(key.secret, '127.0.0.1')).ok).toBe(true);
    await revokeBySql(key.id); // behind the product's back: no NOTIFY, so the cache still answers
    expect((await keys.authenticate(key.secret, '127.0.0.1')).ok).toBe(true);
  });
});
