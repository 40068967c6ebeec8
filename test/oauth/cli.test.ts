import pg from 'pg';
import * as client from 'openid-client';
import { DEMO_MEMBER } from '../../src/members/demo-member-account.js';
import { authorizeInBrowser, openIdConfiguration, REDIRECT_URI } from '../factories/oauth.js';
import type { Envelope } from '../helpers/envelope.js';
import { lastLine, runCli, runNpmCli, type CliResult } from '../helpers/cli-process.js';
import { cliOn, type Cli } from '../helpers/cli-on-server.js';
import { realmApp } from '../helpers/realm-suite.js';
import { sharedApp } from '../helpers/shared-suite.js';
import { createTestDatabase } from '../helpers/test-database.js';

let databaseUrl: string;

// In the shared server's process (test/helpers/cli-on-server.ts: this file evaluates none of the app's
// modules); oauth-clients create runs through `npm run -s cli` below and the first members create as the
// compiled CLI's process.
let cli: Cli;

let registered: CliResult;
let pool: pg.Pool;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  cli = cliOn(await sharedApp(), databaseUrl);
  // The first command seeds the demo organization (and its member), as on a fresh clone.
  registered = await cli(
    'oauth-clients',
    'create',
    '--org',
    'demo',
    '--name',
    'CLI app',
    '--redirect-uri',
    REDIRECT_URI,
    '--redirect-uri',
    'https://cli-app.example.com/callback',
  );
}, 90_000);
afterAll(() => pool.end());

describe('npm run cli -- oauth-clients create / members create', () => {
  it('prints {"clientId","clientSecret"} alone on the last line; the demo member signs in with it', async () => {
    expect(registered.code).toBe(0);
    expect(registered.stderr).toContain('Seeded the demo organization');
    const printed = JSON.parse(lastLine(registered.stdout)) as Record<string, string>;
    expect(Object.keys(printed).sort()).toEqual(['clientId', 'clientSecret']);
    expect(printed.clientId).toMatch(/^svc_ci_/);
    expect(printed.clientSecret).toMatch(/^svc_cs_[A-Za-z0-9_-]{43}$/);
    // The authorization URL the README shows, ready to open (the server's default PUBLIC_URL).
    expect(registered.stderr).toContain(
      `http://localhost:4000/oauth/authorize?response_type=code&client_id=${printed.clientId}` +
        `&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&scope=read:tenants`,
    );

    // The server on the CLI's database, built in the worker's realm (realm-suite.ts).
    const app = await realmApp({ databaseUrl });
    try {
      const config = openIdConfiguration(app, {
        id: '',
        clientId: printed.clientId,
        clientSecret: printed.clientSecret,
        redirectUri: REDIRECT_URI,
      });
      const { callback, codeVerifier, state } = await authorizeInBrowser(app, config, {
        scope: 'read:tenants read:users',
        email: DEMO_MEMBER.email,
        password: DEMO_MEMBER.password,
      });
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
      });
      const tenants = await app.request<Envelope<Array<{ name: string }>>>('GET', '/v1/tenants', {
        key: tokens.access_token,
      });
      expect(tenants.status).toBe(200);
      expect(tenants.body.data.map((t) => t.name)).toContain('Contoso Dental Group');
    } finally {
      await app.stop();
    }
  });

  it('prints exactly {"clientId","clientSecret"} on the last line through `npm run -s cli` with default logging', async () => {
    const result = await runNpmCli(
      databaseUrl,
      'oauth-clients',
      'create',
      '--org',
      'demo',
      '--name',
      'Script app',
      '--redirect-uri',
      'https://script-app.example.com/callback',
    );
    expect(result.code).toBe(0);
    const line = lastLine(result.stdout);
    expect(line).toMatch(
      /^\{"clientId":"svc_ci_[A-Za-z0-9_-]+","clientSecret":"svc_cs_[A-Za-z0-9_-]{43}"\}$/,
    );
    const printed = JSON.parse(line) as Record<string, string>;
    expect(Object.keys(printed)).toEqual(['clientId', 'clientSecret']);
    const { rows } = await pool.query<{ name: string }>(
      'select name from oauth_clients where client_id = $1',
      [printed.clientId],
    );
    expect(rows).toEqual([{ name: 'Script app' }]);
  }, 150_000);

  it('refuses a redirect URI that is not https or loopback http (exit code 1, one line)', async () => {
    const result = await cli(
      'oauth-clients',
      'create',
      '--org',
      'demo',
      '--name',
      'Bad',
      '--redirect-uri',
      'http://example.com/cb',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*must use https/);
    expect(result.stdout).toBe('');
  });

  it('creates a member and prints it as JSON; a second time the email is taken (exit code 1)', async () => {
    const created = await runCli(
      databaseUrl,
      'members',
      'create',
      '--org',
      'demo',
      '--email',
      'Ops@Demo-MSP.example',
      '--password',
      'ops-passphrase-1',
      '--role',
      'admin',
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(lastLine(created.stdout))).toMatchObject({
      email: 'ops@demo-msp.example',
      role: 'admin',
    });
    const again = await cli(
      'members',
      'create',
      '--org',
      'demo',
      '--email',
      'ops@demo-msp.example',
      '--password',
      'ops-passphrase-2',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('rejects an unknown role before touching the database', async () => {
    const result = await cli(
      'members',
      'create',
      '--org',
      'demo',
      '--email',
      'x@example.com',
      '--password',
      'x-passphrase-1',
      '--role',
      'emperor',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('emperor');
  });
});
