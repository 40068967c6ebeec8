/**
 * Fault suite (docs/reliability.md): an instance that could not sign webhook deliveries does not start.
 * The first instance stores a check value sealed with its key; one with another key, or none while
 * sealed secrets exist, exits at start-up naming SECRETS_KEY.
 */
import { SecretBox } from '../../src/core/secret-box.js';
import { createOrganizationWithKeys } from '../factories/shared.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { createWebhook } from '../webhooks/webhook-kit.js';
import { FaultServer } from './fault-server.js';

let databaseUrl: string;
/** The fixtures' server on the file's database, built in the worker's realm (realm-suite.ts). */
let setup: RealmApp;
const servers: FaultServer[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  setup = await realmApp({ databaseUrl, webhooks: { allowPrivateTargets: true } });
  const org = await createOrganizationWithKeys(setup);
  await createWebhook(setup, org.keys.admin, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
});
afterAll(async () => {
  for (const server of servers) server.reap();
  await setup.stop();
});

async function refusedStart(secretsKey: string | undefined): Promise<string> {
  const server = await FaultServer.start(
    { DATABASE_URL: databaseUrl, SECRETS_KEY: secretsKey, RUN_WORKER: 'true' },
    { waitReady: false },
  );
  servers.push(server);
  expect(await server.exited()).toBe(1);
  return server.output;
}

describe('[fault] secrets key', () => {
  it('starts with the right key and stores the check value; refuses a different key or none', async () => {
    const first = await FaultServer.start({ DATABASE_URL: databaseUrl, RUN_WORKER: 'true' });
    servers.push(first);
    const { rows } = await setup.pool.query('select check_value from secrets_key_checks');
    expect(rows).toHaveLength(1);

    const otherKey = await refusedStart(SecretBox.generateKey());
    expect(otherKey).toContain('is not the key that sealed the stored secrets');
    expect(otherKey).toContain('SECRETS_KEY');

    const noKey = await refusedStart(undefined);
    expect(noKey).toContain('SECRETS_KEY is not set');
    expect(first.child.exitCode).toBeNull(); // the instance with the right key keeps running
  }, 120_000);
});
