import { DEMO_AVAILABLE_TENANT } from '../../src/db/seeds/demo-tenants.js';
import { DEMO_DATABASE_TIMEOUT_MS, lastLine, runCli, type CliResult } from '../helpers/cli-process.js';
import { cliOn, demoCliOnServer, type Cli } from '../helpers/cli-on-server.js';

/**
 * The documented step that creates a grant (docs/security-model.md "Tenant consent"): the operator plays the
 * customer's administrator of the simulated cloud. The demo's waiting customer is granted by the seed; here
 * it is revoked, refused, granted again and onboarded.
 */
// In the shared server's process (test/helpers/cli-on-server.ts); the first command runs the compiled CLI as a
// process.
let cli: Cli;
const externalId = DEMO_AVAILABLE_TENANT.externalId!;

let revoked: CliResult;

beforeAll(async () => {
  const { app, databaseUrl } = await demoCliOnServer();
  cli = cliOn(app, databaseUrl);
  // The demo organization as the CLI's first command seeds a fresh database (its customers granted).
  revoked = await runCli(databaseUrl, 'tenants', 'revoke-grant', externalId, '--org', 'demo');
}, DEMO_DATABASE_TIMEOUT_MS);

describe('npm run cli -- tenants grant / revoke-grant', () => {
  it('revokes, refuses onboarding without a grant (saying how to get one), grants, then onboards', async () => {
    expect(revoked.code).toBe(0);
    expect(lastLine(revoked.stdout)).toBe('revoked');
    expect(lastLine((await cli('tenants', 'revoke-grant', externalId, '--org', 'demo')).stdout)).toBe(
      'not granted',
    );

    const refused = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--external-id',
      externalId,
      '--no-sync',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has not granted your organization delegated access');
    expect(refused.stderr).toContain(`tenants grant ${externalId}`);

    const granted = await cli('tenants', 'grant', externalId, '--org', 'demo');
    expect(granted.code).toBe(0);
    expect(lastLine(granted.stdout)).toBe('granted');
    expect(lastLine((await cli('tenants', 'grant', externalId, '--org', 'demo')).stdout)).toBe(
      'already granted',
    );

    const onboarded = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--external-id',
      externalId,
      '--no-sync',
    );
    expect(onboarded.code).toBe(0);
    expect(lastLine(onboarded.stdout)).toMatch(/^[0-9a-f-]{36}$/);
  }, 90_000);

  it('names an unknown cloud tenant or organization in one line (exit 1)', async () => {
    const unknownTenant = await cli('tenants', 'grant', 'no-such-tenant', '--org', 'demo');
    expect(unknownTenant.code).toBe(1);
    expect(unknownTenant.stderr).toContain('The simulated cloud has no tenant no-such-tenant');
    const unknownOrg = await cli('tenants', 'grant', externalId, '--org', 'nobody');
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toContain('Organization "nobody" was not found');
  }, 60_000);
});
