import pg from 'pg';
import { DEMO_DATABASE_TIMEOUT_MS, lastLine, runCli } from '../helpers/cli-process.js';
import { cliOn, demoCliOnServer, type Cli } from '../helpers/cli-on-server.js';

let databaseUrl: string;
// In the shared server's process (test/helpers/cli-on-server.ts); the first create runs the compiled CLI as a
// process.
let cli: Cli;

async function organizationCount(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from organizations');
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** A CLI run opens the database (and the first starts a process): a few seconds each on a loaded machine. */
const CLI_TEST_TIMEOUT_MS = 120_000;

beforeAll(async () => {
  const { app, databaseUrl: url } = await demoCliOnServer();
  databaseUrl = url;
  cli = cliOn(app, databaseUrl);
}, DEMO_DATABASE_TIMEOUT_MS);

describe('npm run cli -- organizations create', () => {
  it(
    'creates an organization, printed as JSON on the last line, that api-keys create can then use',
    async () => {
      const created = await runCli(
        databaseUrl,
        'organizations',
        'create',
        '--slug',
        'acme-msp',
        '--name',
        'Acme MSP',
        '--plan',
        'growth',
      );
      expect(created.code).toBe(0);
      expect(JSON.parse(lastLine(created.stdout))).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: 'acme-msp',
        name: 'Acme MSP',
        plan: 'growth',
        rateLimitPerMinute: 300,
      });
      const key = await cli('api-keys', 'create', '--org', 'acme-msp', '--level', 'admin', '--env', 'test');
      expect(key.code).toBe(0);
      expect(lastLine(key.stdout)).toMatch(/^svc_sk_test_/);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'takes a custom plan with its contracted rate limit',
    async () => {
      const created = await cli(
        'organizations',
        'create',
        '--slug',
        'big-msp',
        '--name',
        'Big',
        '--plan',
        'custom',
        '--rate-limit',
        '5000',
      );
      expect(created.code).toBe(0);
      expect(JSON.parse(lastLine(created.stdout))).toMatchObject({
        plan: 'custom',
        rateLimitPerMinute: 5000,
      });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a taken slug, and bad fields naming each one, writing nothing',
    async () => {
      const before = await organizationCount();
      const taken = await cli(
        'organizations',
        'create',
        '--slug',
        'acme-msp',
        '--name',
        'Again',
        '--plan',
        'starter',
      );
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('already exists');
      const bad = await cli(
        'organizations',
        'create',
        '--slug',
        'Not A Slug',
        '--name',
        ' ',
        '--plan',
        'growth',
        '--rate-limit',
        '10',
      );
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('slug:');
      expect(bad.stderr).toContain('name:');
      expect(bad.stderr).toContain('rateLimit:');
      const plan = await cli(
        'organizations',
        'create',
        '--slug',
        'x-msp',
        '--name',
        'X',
        '--plan',
        'platinum',
      );
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain('platinum');
      expect(await organizationCount()).toBe(before);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
