import pg from 'pg';
import { lastLine, runCliWithEnv, type CliResult } from '../helpers/cli-process.js';
import { cliOn, demoCliOnServer, type Cli } from '../helpers/cli-on-server.js';
import type { SharedApp } from '../helpers/shared-suite.js';
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
let app: SharedApp;
let databaseUrl: string;
let scenario: GraphScenario;
let env: Record<string, string>;
let before: CliResult;
// In the shared server's process (test/helpers/cli-on-server.ts); the first command runs the compiled CLI.
let cli: Cli;
const connectArgs = (secret: string) => cloudConnectArgs(scenario, secret);

beforeAll(async () => {
  [{ app, databaseUrl }, scenario] = await Promise.all([demoCliOnServer(), startGraphScenario()]);
  env = cliEnvFor(scenario);
  cli = cliOn(app, databaseUrl, env);
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
    const result = await cliOn(app, databaseUrl, {
      ...env,
      MICROSOFT_GRAPH_URL: 'http://graph.example.test',
    })('cloud', 'status', '--org', 'demo');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('MICROSOFT_GRAPH_URL must use https://');
  });
});
