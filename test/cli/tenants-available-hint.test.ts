import { cliOn, demoCliOnServer, type Cli } from '../helpers/cli-on-server.js';
import {
  cliEnvFor,
  cloudConnectArgs,
  startGraphScenario,
  type GraphScenario,
} from '../helpers/graph-fake.js';

/**
 * `tenants available` with nothing to list says what the operator does next, as the provider has customers
 * consent: the simulated cloud's operator grants in the customer's place (`tenants grant`, a simulated-cloud
 * command); on Microsoft 365 the customer's administrator consents to the app (its admin-consent URL, shown by
 * `cloud status`), and `tenants onboard --env live` then onboards it (docs/microsoft365.md section 2).
 */
let scenario: GraphScenario;
/** In the shared server's process (test/helpers/cli-on-server.ts), with the fake's environment. */
let cli: Cli;

beforeAll(async () => {
  const [{ app, databaseUrl }, started] = await Promise.all([demoCliOnServer(), startGraphScenario()]);
  scenario = started;
  cli = cliOn(app, databaseUrl, cliEnvFor(scenario));
  expect((await cli(...cloudConnectArgs(scenario))).code).toBe(0);
}, 120_000);
afterAll(() => scenario.fake.stop());

it('live on Microsoft 365: the customer consents to the app, then onboard with --env live; no simulated-cloud grant', async () => {
  scenario.partner.customers = []; // no GDAP relationship yet
  const live = await cli('tenants', 'available', '--org', 'demo', '--env', 'live');
  expect(live.code).toBe(0);
  expect(live.stdout).toBe('');
  expect(live.stderr).toContain('No customer lists your partner tenant yet (microsoft365');
  expect(live.stderr).toContain('npm run -s cli -- cloud status --org demo: "customer admin consent"');
  expect(live.stderr).toContain(
    'npm run -s cli -- tenants onboard --org demo --env live --external-id <customer tenant id>',
  );
  expect(live.stderr).toContain('docs/microsoft365.md, "GDAP and customer consent"');
  expect(live.stderr).not.toContain('tenants grant');
  // What the hint names is there: `cloud status` shows the admin-consent URL to send.
  const status = await cli('cloud', 'status', '--org', 'demo');
  expect(status.stdout).toMatch(
    /customer admin consent: https:\/\/\S+\/\{customerTenantId\}\/v2\.0\/adminconsent\?/,
  );
});

it('the simulated cloud: the operator grants in the customer’s place', async () => {
  expect(
    (await cli('organizations', 'create', '--slug', 'no-customers', '--name', 'No Customers')).code,
  ).toBe(0);
  const sandbox = await cli('tenants', 'available', '--org', 'no-customers');
  expect(sandbox.code).toBe(0);
  expect(sandbox.stderr).toContain(
    'No customer grants no-customers delegated access yet (tenants grant <externalId> --org no-customers).',
  );
});
