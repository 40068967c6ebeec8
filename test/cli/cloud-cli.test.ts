import pg from 'pg';
import {
  createDemoDatabase,
  lastLine,
  runCliInProcessWithEnv,
  runCliWithEnv,
  type CliResult,
} from '../helpers/cli.js';
import {
  cliEnvFor,
  cloudConnectArgs,
  startGraphScenario,
  type GraphScenario,
} from '../helpers/graph-fake.js';

/**
 * `npm run -s cli -- cloud connect | status | disconnect` against the HTTPS Graph fake: the child process trusts
 * the fake's certificate authority through NODE_EXTRA_CA_CERTS (set by test/global-setup.mjs) and reaches it
 * through MICROSOFT_LOGIN_URL / MICROSOFT_GRAPH_URL.
 */
let databaseUrl: string;
let scenario: GraphScenario;
let env: NodeJS.ProcessEnv;
let before: CliResult;
// In this process (test/helpers/cli.ts); the first command and the refused endpoint run the compiled CLI.
const cli = (...args: string[]) => runCliInProcessWithEnv(databaseUrl, env, ...args);
const connectArgs = (secret: string) => cloudConnectArgs(scenario, secret);

beforeAll(async () => {
  [databaseUrl, scenario] = await Promise.all([createDemoDatabase(), startGraphScenario()]);
  env = cliEnvFor(scenario);
  // The demo organization as a fresh database's first CLI command seeds it (test/helpers/cli.ts).
  before = await runCliWithEnv(databaseUrl, env, 'cloud', 'status', '--org', 'demo');
}, 120_000);
afterAll(() => scenario.fake.stop());

async function storedSecret(): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ client_secret: string | null }>(
      'select client_secret from cloud_connections',
    );
    return rows[0]?.client_secret ?? null;
  } finally {
    await client.end();
  }
}

describe('npm run cli -- cloud', () => {
  it('refuses credentials that fail the test (naming the field), then connects, shows the status and disconnects', async () => {
    expect(before.code).toBe(0);
    expect(lastLine(before.stdout)).toContain('not connected');

    const refused = await cli(...connectArgs('wrong-secret'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The connection test failed');
    expect(refused.stderr).toContain(
      'clientSecret: is not a valid secret of this application (AADSTS7000215)',
    );
    expect(await storedSecret()).toBeNull();

    scenario.fake.clearRequests();
    const connected = await cli(...connectArgs(scenario.secret));
    expect(connected.code).toBe(0);
    expect(connected.stdout).toContain('provider: microsoft365');
    expect(connected.stdout).toContain('client secret: set');
    expect(connected.stdout).not.toContain(scenario.secret);
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/organization?$select=id,displayName,verifiedDomains',
    ]);
    expect(await storedSecret()).toMatch(/^enc:v1:/);

    const status = await cli('cloud', 'status', '--org', 'demo');
    expect(status.stdout).toContain(`partner tenant: ${scenario.partner.id}`);
    expect(status.stdout).toContain('live provider active: yes');
    expect(status.stdout).toMatch(/mailContacts\s+no \(no API\)/);
    expect(status.stdout).toMatch(/users\s+yes\s+-/);
    expect(status.stdout).not.toContain(scenario.secret);

    const tested = await cli('cloud', 'test', '--org', 'demo');
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain('last test: succeeded');
    expect(tested.stdout).toContain('GET /organization ("Contoso MSP") succeeded');

    const disconnected = await cli('cloud', 'disconnect', '--org', 'demo');
    expect(lastLine(disconnected.stdout)).toBe('disconnected');
    expect(lastLine((await cli('cloud', 'status', '--org', 'demo')).stdout)).toContain('not connected');
  }, 120_000);

  it('refuses a Microsoft endpoint that is not https', async () => {
    const result = await runCliInProcessWithEnv(
      databaseUrl,
      { ...env, MICROSOFT_GRAPH_URL: 'http://graph.example.test' },
      'cloud',
      'status',
      '--org',
      'demo',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('MICROSOFT_GRAPH_URL must use https://');
  });
});
