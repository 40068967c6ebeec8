import pg from 'pg';
import { DEMO_AVAILABLE_TENANT } from '../../src/db/seeds/demo-tenants.js';
import { lastLine, runCli, type CliResult } from '../helpers/cli-process.js';
import { cliOn, type Cli } from '../helpers/cli-on-server.js';
import { eventually } from '../helpers/eventually.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { createTestDatabase } from '../helpers/test-database.js';

let databaseUrl: string;

// In the server's process (test/helpers/cli-on-server.ts); the first command runs the compiled CLI as a process.
let cli: Cli;

let created: CliResult;
/**
 * One server on the CLI's database for the whole file, built in the worker's realm (realm-suite.ts: the file
 * evaluates none of the app's modules, and the in-process commands run there too). A key it has cached stays
 * cached until a change reaches it: the revocation test below waits for the CLI's NOTIFY to drop it, as a
 * running server sees a revocation made by the CLI.
 */
let app: RealmApp;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  app = await realmApp({ databaseUrl });
  cli = cliOn(app, databaseUrl);
  // The first command on a fresh database seeds the demo organization, as on a fresh clone.
  created = await runCli(
    databaseUrl,
    'api-keys',
    'create',
    '--org',
    'demo',
    '--level',
    'write',
    '--name',
    'PSA sync',
  );
}, 60_000);
afterAll(() => app?.stop());

describe('npm run cli -- api-keys', () => {
  it('creates a sandbox key, printed alone on the last line of stdout, that authenticates', async () => {
    expect(created.code).toBe(0);
    const key = lastLine(created.stdout);
    expect(key).toMatch(/^svc_sk_test_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain('Seeded the demo organization');
    const res = await app.request<{ success: boolean; data: Array<{ name: string }> }>('GET', '/v1/tenants', {
      key,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t) => t.name)).toContain('Contoso Dental Group');
  });

  it('creates live keys with --env live', async () => {
    const result = await cli('api-keys', 'create', '--org', 'demo', '--level', 'admin', '--env', 'live');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('Seeded');
    const key = lastLine(result.stdout);
    expect(key).toMatch(/^svc_sk_live_[A-Za-z0-9_-]{43}$/);
    const res = await app.request<{ data: unknown[] }>('GET', '/v1/tenants', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]); // the demo data lives in the sandbox only
  });

  it('lists keys with name, level, prefix…last 4, created, last used and revoked', async () => {
    const key = lastLine(created.stdout);
    const result = await cli('api-keys', 'list', '--org', 'demo');
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'LEVEL', 'KEY', 'CREATED', 'LAST USED', 'REVOKED']);
    const row = rows.find((line) => line.includes('PSA sync'));
    expect(row).toContain('Write');
    expect(row).toContain(`svc_sk_test_…${key.slice(-4)}`);
    expect(row).not.toContain(key);
    expect(row?.split(/\s{2,}/)[4]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(rows.every((line) => !line.includes('svc_sk_live_'))).toBe(true);
  });

  it('revokes a key: requests with it get 401', async () => {
    const key = lastLine(created.stdout);
    const list = await cli('api-keys', 'list', '--org', 'demo');
    const id = list.stdout
      .split('\n')
      .find((line) => line.includes('PSA sync'))!
      .split(/\s+/)[0];
    const result = await cli('api-keys', 'revoke', '--org', 'demo', '--id', id);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Revoked');
    // The server authenticated (and cached) this key in the first test; the CLI's revocation reaches it by NOTIFY.
    const res = await eventually(
      async () => {
        const answer = await app.request<{ error: { code: string } }>('GET', '/v1/tenants', { key });
        expect(answer.status).toBe(401);
        return answer;
      },
      { what: 'the revoked key to be refused' },
    );
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    const after = await cli('api-keys', 'list', '--org', 'demo');
    const revokedAt = after.stdout
      .split('\n')
      .find((line) => line.includes(id))!
      .split(/\s{2,}/)[6];
    expect(revokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('fails with exit code 1 and a clear message for an unknown organization, level or key', async () => {
    const unknownOrg = await cli('api-keys', 'create', '--org', 'no-such-org', '--level', 'read');
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toContain('Organization "no-such-org" was not found');
    expect(unknownOrg.stdout).toBe('');
    const badLevel = await cli('api-keys', 'create', '--org', 'demo', '--level', 'superuser');
    expect(badLevel.code).toBe(1);
    expect(badLevel.stderr).toContain('read, write, admin');
    const unknownKey = await cli(
      'api-keys',
      'revoke',
      '--org',
      'demo',
      '--id',
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toContain('was not found');
  });
});

describe('npm run cli -- tenants onboard', () => {
  async function usersOf(tenantId: string): Promise<number> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: number }>(
        'select count(*)::int as count from users where tenant_id = $1',
        [tenantId],
      );
      return rows[0].count;
    } finally {
      await client.end();
    }
  }

  it('onboards and syncs the demo customer waiting in the simulated cloud; a second time is refused', async () => {
    const result = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--external-id',
      DEMO_AVAILABLE_TENANT.externalId!,
    );
    expect(result.code).toBe(0);
    const tenantId = lastLine(result.stdout);
    expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await usersOf(tenantId)).toBeGreaterThan(DEMO_AVAILABLE_TENANT.employees!);
    const again = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--external-id',
      DEMO_AVAILABLE_TENANT.externalId!,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already onboarded');
  });

  it('creates a new simulated customer from --name and --domain', async () => {
    const result = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--name',
      'Acme Corp',
      '--domain',
      'acme-corp.example',
      '--employees',
      '12',
    );
    expect(result.code).toBe(0);
    expect(await usersOf(lastLine(result.stdout))).toBeGreaterThan(12);
    const bad = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--name',
      'Nope',
      '--domain',
      'not a domain',
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--domain');
  });
});
