/**
 * `npm run cli -- users import` (issue #14 item 4): the same checks, operation and user-import job as
 * `POST /api/user-management-identity/users/bulk`, run to the end with its progress (plain lines when
 * stderr is no terminal, as here), the operation id alone on the last stdout line, non-zero when rows failed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { UserImport } from '../../src/user-management/user-import.entity.js';
import { createOrganizationWithKeys, createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import {
  createDemoDatabase,
  DEMO_DATABASE_TIMEOUT_MS,
  lastLine,
  runCli,
  type CliResult,
} from '../helpers/cli.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

let databaseUrl: string;
/** The fixtures' server on the CLI's database, built in the worker's realm (realm-suite.ts). */
let app: RealmApp;
let org: OrganizationWithKeys;
let folder: string;

beforeAll(async () => {
  databaseUrl = await createDemoDatabase();
  app = await realmApp({ databaseUrl });
  org = await createOrganizationWithKeys(app);
  folder = await mkdtemp(path.join(tmpdir(), 'users-import-cli-'));
}, DEMO_DATABASE_TIMEOUT_MS);
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await app.stop();
});

async function csvFile(name: string, text: string): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, text);
  return file;
}

/**
 * In the server's process (onServer `runCli`: test/helpers/cli.ts's in-process runner, so this file evaluates no
 * app module) unless `run` says otherwise (the first test: the CLI's process).
 */
const inServer = (url: string, ...args: string[]): Promise<CliResult> =>
  onServer(app, 'runCli', url, {}, args);
const importUsers = (tenant: Tenant, file: string, run = inServer) =>
  run(databaseUrl, 'users', 'import', '--org', org.organization.slug, '--tenant', tenant.id, '--file', file);
const importOf = async (id: string) =>
  (await onServer(app, 'findEntity', 'UserImport', { id })) as unknown as UserImport;

async function usersOf(tenant: Tenant): Promise<string[]> {
  const { rows } = await app.pool.query<{ upn: string }>(
    'select user_principal_name as upn from users where tenant_id = $1 order by 1',
    [tenant.id],
  );
  return rows.map((row) => row.upn);
}

describe('npm run cli -- users import', () => {
  it('runs the import job to the end with its progress, prints generated passwords and the id last', async () => {
    const tenant = await createTenant(app, org.scope);
    const file = await csvFile(
      'good.csv',
      'UserPrincipalName,FirstName,LastName,Password\n' +
        `ada@${tenant.domain},Ada,Lovelace,\n` +
        `grace@${tenant.domain},Grace,Hopper,Corr3ct-Horse-Battery!\n`,
    );
    const result = await importUsers(tenant, file, runCli);
    expect(result.code).toBe(0);
    const id = lastLine(result.stdout);
    const operation = await importOf(id);
    expect(operation).toMatchObject({ status: 'Completed', createdRows: 2, failedRows: 0, runAttempts: 1 });
    expect(result.stderr).toContain('processed 2/2 rows (created 2, failed 0)');
    expect(result.stderr).toContain('Import Completed: 2 created, 0 failed');
    // Only the row without a password got one, shown once on stdout.
    expect(result.stdout).toMatch(new RegExp(`^ada@${tenant.domain.replace(/\./g, '\\.')},\\S{12,}$`, 'm'));
    expect(result.stdout).not.toContain('Corr3ct-Horse-Battery!');
    expect(await usersOf(tenant)).toEqual([`ada@${tenant.domain}`, `grace@${tenant.domain}`]);
  }, 60_000);

  it('exits non-zero and lists the rows when rows failed in the job', async () => {
    const tenant = await createTenant(app, org.scope);
    // The upstream cloud no longer knows the tenant: every create is refused there, row by row.
    await onServer(app, 'deleteEntities', 'SimulatedCloudTenant', { externalId: tenant.externalId });
    const file = await csvFile(
      'refused.csv',
      `UserPrincipalName,FirstName,LastName\nalan@${tenant.domain},Alan,Turing\n`,
    );
    const result = await importUsers(tenant, file);
    expect(result.code).toBe(1);
    const operation = await importOf(lastLine(result.stdout));
    expect(operation).toMatchObject({ status: 'Failed', failedRows: 1, createdRows: 0 });
    expect(result.stderr).toMatch(/line 2 \(alan@[^)]+\): /);
    expect(result.stderr).toContain('error: 1 of 1 rows failed');
  }, 60_000);

  it('refuses a wrong header before anything is written, naming the problem', async () => {
    const tenant = await createTenant(app, org.scope);
    const file = await csvFile('wrong.csv', `Upn,First\nx@${tenant.domain},X\n`);
    const result = await importUsers(tenant, file);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/UserPrincipalName/);
    const { rows } = await app.pool.query('select 1 from user_imports where tenant_id = $1', [tenant.id]);
    expect(rows).toHaveLength(0);
  }, 60_000);
});
