import pg from 'pg';
import { lastLine } from '../helpers/cli.js';
import { cloudConnectArgs, type GraphScenario } from '../helpers/graph-fake.js';
import { sharedLiveCli } from './live-kit.js';

/**
 * `tenants available | onboard --env live` against the HTTPS Graph fake, once the demo organization's live
 * environment is connected to it (`cloud connect`): customers from delegatedAdminCustomers, a customer that
 * did not consent refused with the admin-consent URL, a consented one onboarded and synced through Graph.
 */
let databaseUrl: string;
let scenario: GraphScenario;
let cli: Awaited<ReturnType<typeof sharedLiveCli>>['cli'];

beforeAll(async () => {
  ({ scenario, databaseUrl, cli } = await sharedLiveCli());
  const connected = await cli(...cloudConnectArgs(scenario));
  expect(connected.code).toBe(0);
}, 120_000);

async function liveTenants(): Promise<Array<{ name: string; domain: string; external_id: string }>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; domain: string; external_id: string }>(
      "select name, domain, external_id from tenants where environment = 'live'",
    );
    return rows;
  } finally {
    await client.end();
  }
}

describe('npm run cli -- tenants … --env live (Microsoft 365)', () => {
  it('lists the customers of the partner tenant', async () => {
    const listed = await cli('tenants', 'available', '--org', 'demo', '--env', 'live');
    expect(listed.code).toBe(0);
    for (const customer of [scenario.consented, scenario.consentMissing, scenario.unknownApp])
      expect(listed.stdout).toContain(customer.id);
    expect(listed.stdout).toContain('Fabrikam');
  });

  it('refuses a customer that did not consent, printing the admin-consent URL, and stores nothing', async () => {
    const refused = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--env',
      'live',
      '--external-id',
      scenario.consentMissing.id,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      `${scenario.fake.loginUrl}/${scenario.consentMissing.id}/v2.0/adminconsent?client_id=${scenario.app.clientId}`,
    );
    expect(await liveTenants()).toEqual([]);
  });

  it('onboards and syncs a consented customer through Graph', async () => {
    scenario.fake.clearRequests();
    const onboarded = await cli(
      'tenants',
      'onboard',
      '--org',
      'demo',
      '--env',
      'live',
      '--external-id',
      scenario.consented.id,
    );
    expect(onboarded.code).toBe(0);
    expect(onboarded.stderr).toContain('Onboarded "Fabrikam" (fabrikam.com) into demo, live.');
    expect(onboarded.stderr).toContain('Synced: usersCreated 5,');
    // What the sync could not do on Microsoft 365 is said, one note per area without an API.
    expect(onboarded.stderr).toMatch(/^Note: [\w-]+: not available on microsoft365 \(/m);
    expect(lastLine(onboarded.stdout)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await liveTenants()).toEqual([
      { name: 'Fabrikam', domain: 'fabrikam.com', external_id: scenario.consented.id },
    ]);
    expect(scenario.fake.graphCalls()).toEqual(
      expect.arrayContaining([
        'GET /v1.0/organization?$select=id,displayName,verifiedDomains',
        expect.stringMatching(/^GET \/v1\.0\/users\/delta\?/),
      ]),
    );
  });
});
