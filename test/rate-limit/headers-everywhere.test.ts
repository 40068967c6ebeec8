import type { OrganizationWithKeys } from '../factories/organizations.js';
import { backupTenant, latestSnapshot, startRestore, untilFinished } from '../backup/backup-kit.js';
import { realmSuite, realmApp, type RealmApp } from '../helpers/realm-suite.js';

let app: RealmApp;
let org: OrganizationWithKeys;
/** The signed link of a finished export: path and query. */
let downloadPath: string;

beforeAll(async () => {
  ({ app, org } = await realmSuite({ jobs: true }));
  const { tenant } = await backupTenant(app, org);
  const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
  const res = await startRestore(app, org.keys.write, tenant.id, {
    workload: 'Mailbox',
    restoreType: 'Granular item',
    snapshotId: snapshot.id,
    itemIds: ['inbox/1'],
    target: { type: 'Export' },
  });
  // The link is shown to credentials that may start a restore (issue #32 item 7), so a Write key reads it.
  const job = await untilFinished(app, org.keys.write, tenant.id, res.body.data.id);
  const url = new URL(job.download!.url);
  downloadPath = url.pathname + url.search;
});
afterAll(() => app.stop());

interface Limits {
  limit: number;
  remaining: number;
  reset: number;
}

function limitsOf(headers: Headers): Limits {
  const read = (name: string) => {
    const value = headers.get(name);
    expect(value).toMatch(/^\d+$/);
    return Number(value);
  };
  const limits = {
    limit: read('x-ratelimit-limit'),
    remaining: read('x-ratelimit-remaining'),
    reset: read('x-ratelimit-reset'),
  };
  expect(limits.reset).toBeGreaterThan(Date.now() / 1000 - 1);
  expect(limits.reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  return limits;
}

async function send(method: string, path: string, init: RequestInit = {}) {
  const response = await fetch(app.baseUrl + path, { method, ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The organization's own window, as an API key request of the sandbox sees it. */
async function organizationRemaining(): Promise<number> {
  const res = await send('GET', '/v1/tenants', { headers: { authorization: `Bearer ${org.keys.read}` } });
  return limitsOf(res.headers).remaining;
}

describe('SPEC 8.1: the X-RateLimit-* headers on responses without an API key', () => {
  it('an unknown path outside /v1 and /api: 404 envelope, counted per client address (Starter 60)', async () => {
    const first = await send('POST', '/nothing');
    expect(first.status).toBe(404);
    expect(JSON.parse(first.text)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const second = await send('GET', '/also/nothing');
    expect(limitsOf(first.headers).limit).toBe(60);
    expect(limitsOf(second.headers).remaining).toBe(limitsOf(first.headers).remaining - 1);
  });

  it('the OAuth endpoints, per address in a window of their own (the token endpoint’s 300 a minute)', async () => {
    const token = await send('POST', '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=nobody&client_secret=wrong',
    });
    expect(token.status).toBeGreaterThanOrEqual(400);
    const before = limitsOf(token.headers);
    expect(before.limit).toBe(300);
    const metadata = await send('GET', '/.well-known/oauth-authorization-server');
    expect(metadata.status).toBe(200);
    expect(limitsOf(metadata.headers)).toMatchObject({ limit: 300, remaining: before.remaining - 1 });
    const page = await send('GET', '/oauth/authorize');
    expect(limitsOf(page.headers)).toMatchObject({ limit: 300, remaining: before.remaining - 2 });
  });

  it('the export download link: a verified link counts in its organization’s window, a bad one per address', async () => {
    const orgBefore = await organizationRemaining();
    const ok = await send('GET', downloadPath);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).items).toHaveLength(1);
    // startSuite's organization is on the Scale plan (1000 a minute).
    expect(limitsOf(ok.headers)).toMatchObject({ limit: 1000, remaining: orgBefore - 1 });

    const ipBefore = limitsOf((await send('GET', '/nothing')).headers).remaining;
    const forged = await send('GET', downloadPath.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(forged.status).toBe(403);
    expect(limitsOf(forged.headers)).toMatchObject({ limit: 60, remaining: ipBefore - 1 });
    // The forged link was not charged to the organization: only the download and this read were.
    expect(await organizationRemaining()).toBe(orgBefore - 2);
  });

  it('the download link also works under /v1/api (DECISIONS: /api routes are served under /v1/api too)', async () => {
    const res = await send('GET', `/v1${downloadPath}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).items).toHaveLength(1);
    limitsOf(res.headers);
    const forged = await send('GET', `/v1${downloadPath.replace(/signature=[^&]+/, 'signature=AAAA')}`);
    expect(forged.status).toBe(403);
    limitsOf(forged.headers);
  });

  it('counts per address across server processes sharing the database', async () => {
    const second = await realmApp({ databaseUrl: app.databaseUrl });
    try {
      const here = limitsOf((await send('POST', '/nothing')).headers).remaining;
      const there = await fetch(`${second.baseUrl}/nothing`, { method: 'POST' });
      expect(limitsOf(there.headers).remaining).toBe(here - 1);
    } finally {
      await second.stop();
    }
  });

  it('the health probes stay uncounted (DECISIONS: no auth, no rate limit)', async () => {
    const res = await send('GET', '/health/live');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
