/**
 * Issue #33 item 3: onboarding a new simulated tenant is all-or-nothing. A name like a demo tenant's used to
 * get the demo's `.onmicrosoft.com` domain, print "Onboarded", then fail the first sync on duplicate users
 * with a stack trace, leaving an empty "active" tenant. `tenants available` lists what may be onboarded.
 */
import pg from 'pg';
import { DEMO_AVAILABLE_TENANT } from '../../src/db/seeds/demo-tenants.js';
import { DEMO_DATABASE_TIMEOUT_MS, lastLine, runCli } from '../helpers/cli-process.js';
import { cliOn, demoCliOnServer, type Cli } from '../helpers/cli-on-server.js';

let databaseUrl: string;
// In the shared server's process (test/helpers/cli-on-server.ts); the first command runs the compiled CLI as a
// process.
let cli: Cli;

async function counts(): Promise<{ cloud: number; tenants: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ cloud: number; tenants: number }>(
      'select (select count(*)::int from sim_cloud_tenants) as cloud, (select count(*)::int from tenants) as tenants',
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const { app, databaseUrl: url } = await demoCliOnServer();
  databaseUrl = url;
  cli = cliOn(app, databaseUrl);
}, DEMO_DATABASE_TIMEOUT_MS);

describe('npm run cli -- tenants available / onboard --name --domain', () => {
  it('lists the demo customers with the one still to onboard', async () => {
    const listed = await runCli(databaseUrl, 'tenants', 'available', '--org', 'demo');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EXTERNAL ID\s+NAME\s+STATUS$/);
    expect(lines.filter((line) => line.endsWith('available'))).toEqual([
      expect.stringContaining(DEMO_AVAILABLE_TENANT.externalId!),
    ]);
    expect(lines.filter((line) => line.includes('onboarded ('))).toHaveLength(6);
    expect(listed.stderr).toContain('tenants onboard --org demo --external-id');
    // The live environment cannot onboard what the sandbox holds: the list says so (issue #33).
    const live = await cli('tenants', 'available', '--org', 'demo', '--env', 'live');
    const liveLines = live.stdout.trimEnd().split('\n');
    expect(liveLines.filter((line) => line.endsWith('onboarded in other environment'))).toHaveLength(6);
    expect(liveLines.filter((line) => line.endsWith('available'))).toEqual([
      expect.stringContaining(DEMO_AVAILABLE_TENANT.externalId!),
    ]);
    // Its hint onboards into the environment listed, not the sandbox (README's first hour, live commands).
    expect(live.stderr).toContain('tenants onboard --org demo --env live --external-id <EXTERNAL ID>');
  }, 90_000);

  it('a name like a demo tenant’s gets a free initial domain, and syncs its users', async () => {
    const result = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--name',
      'Contoso Dental West',
      '--domain',
      'contosodental.example',
      '--employees',
      '12',
    );
    expect(result.stderr).not.toMatch(/\n\s+at |duplicate key/);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('contosodental2.onmicrosoft.com');
    expect(result.stderr).toMatch(/Synced: usersCreated [1-9]/);
    expect(lastLine(result.stdout)).toMatch(/^[0-9a-f-]{36}$/);
  }, 90_000);

  it.each([
    [['--domain', 'contosodental.com'], 'already belongs to "Contoso Dental'],
    [['--domain', 'not a domain'], '--domain must be a domain name'],
    [['--domain', 'x.example', '--employees', '0'], '--employees must be a whole number from 1 to 5000'],
  ])(
    'refuses %j before writing anything, in one line',
    async (options, message) => {
      const before = await counts();
      const result = await cli('tenants', 'onboard', '--org', 'demo', '--name', 'Clash', ...options);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(await counts()).toEqual(before);
    },
    60_000,
  );
});

describe('npm run cli -- --url', () => {
  it('links to the server it is told of', async () => {
    const result = await cli(
      'oauth-clients',
      'create',
      '--org',
      'demo',
      '--name',
      'Elsewhere',
      '--redirect-uri',
      'http://localhost:8080/callback',
      '--url',
      'http://localhost:4555/',
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('http://localhost:4555/oauth/authorize?');
  }, 60_000);
});

describe('docs/examples/users-import.csv', () => {
  it('imports into the demo tenant whose domain it uses', async () => {
    const listed = await cli('tenants', 'available', '--org', 'demo');
    const contoso = /Contoso Dental Group\s+onboarded \(([0-9a-f-]{36})\)/.exec(listed.stdout)?.[1];
    expect(contoso).toBeDefined();
    const result = await cli(
      'users',
      'import',
      '--org',
      'demo',
      '--tenant',
      contoso!,
      '--file',
      'docs/examples/users-import.csv',
    );
    expect(result.stderr).toContain('Import Completed: 3 created, 0 failed');
    expect(result.code).toBe(0);
    // The two rows without a password got one, as CSV rows before the operation id.
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1).map((line) => line.split(',')[0])).toEqual([
      'ada.lovelace@contosodental.com',
      'alan.turing@contosodental.com',
    ]);
  }, 90_000);
});
