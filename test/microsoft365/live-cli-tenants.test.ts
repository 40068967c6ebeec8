import { lastLine } from '../helpers/cli.js';
import { cloudConnectArgs, FULL_ROLES, type GraphScenario } from '../helpers/graph-fake.js';
import { sharedLiveCli } from './live-kit.js';

/**
 * The CLI shows a tenant's `cloudPermissions` as GraphQL and REST do (docs/microsoft365.md, "What a customer's
 * consent lacks"): `tenants onboard` says what the consent lacks, `tenants list` has a column for it and
 * `tenants show` lists granted and missing permissions and the areas they disable.
 */
const LACKING = ['User.Invite.All', 'Machine.Isolate'];
let scenario: GraphScenario;
let tenantId: string;
let onboardErr: string;
let cli: Awaited<ReturnType<typeof sharedLiveCli>>['cli'];

beforeAll(async () => {
  ({ scenario, cli } = await sharedLiveCli());
  expect((await cli(...cloudConnectArgs(scenario))).code).toBe(0);
  const { consented, app } = scenario;
  consented.consents.set(app.clientId, { roles: FULL_ROLES.filter((role) => !LACKING.includes(role)) });
  const onboarded = await cli(
    'tenants',
    'onboard',
    '--org',
    'demo',
    '--env',
    'live',
    '--external-id',
    consented.id,
  );
  expect(onboarded.code).toBe(0);
  tenantId = lastLine(onboarded.stdout);
  onboardErr = onboarded.stderr;
}, 120_000);

it('tenants onboard says what the consent lacks and which areas that disables', () => {
  expect(onboardErr).toContain(
    `Cloud permissions missing: Machine.Isolate, User.Invite.All (disabled: guests, deviceActions; ` +
      `tenants show ${tenantId} --org demo --env live)`,
  );
});

it('tenants list has the missing permissions of each tenant; "-" where the cloud has no per-permission consent', async () => {
  const live = await cli('tenants', 'list', '--org', 'demo', '--env', 'live');
  expect(live.code).toBe(0);
  const [header, ...rows] = live.stdout.trimEnd().split('\n');
  expect(header).toMatch(/^ID +NAME +DOMAIN +STATUS +MISSING PERMISSIONS$/);
  expect(rows).toEqual([
    expect.stringMatching(
      new RegExp(`^${tenantId} +Fabrikam +fabrikam\\.com +active +Machine\\.Isolate, User\\.Invite\\.All$`),
    ),
  ]);
  const sandbox = await cli('tenants', 'list', '--org', 'demo');
  expect(sandbox.code).toBe(0);
  const sandboxRows = sandbox.stdout.trimEnd().split('\n').slice(1);
  for (const row of sandboxRows) expect(row).toMatch(/ -$/);
});

it('tenants show lists granted and missing permissions and the disabled areas', async () => {
  const shown = await cli('tenants', 'show', tenantId, '--org', 'demo', '--env', 'live');
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain(`id: ${tenantId}\nname: Fabrikam\n`);
  expect(shown.stdout).toMatch(/^cloud permissions checked: \d{4}-\d\d-\d\dT/m);
  expect(shown.stdout).toContain('missing permissions: Machine.Isolate, User.Invite.All\n');
  expect(shown.stdout).toMatch(/^granted permissions: .*Organization\.Read\.All/m);
  expect(shown.stdout).not.toMatch(/^granted permissions: .*User\.Invite\.All/m);
  expect(shown.stdout).toMatch(
    /^disabled capability +missing permissions\nguests +User\.Invite\.All\ndeviceActions +Machine\.Isolate$/m,
  );
  // Another environment's tenant is not found; a bad id is said so.
  expect((await cli('tenants', 'show', tenantId, '--org', 'demo')).code).not.toBe(0);
  const bad = await cli('tenants', 'show', 'nope', '--org', 'demo', '--env', 'live');
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('must be a tenant id (a UUID)');
});
