import type { RETENTION as Retention } from '../../src/housekeeping/housekeeping.task.js';
import {
  createMember,
  createOAuthClient,
  issueAccessToken,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { commitEvent, createWebhook } from '../webhooks/webhook-kit.js';
import { Permission } from '../../src/core/permissions.js';

let app: RealmApp;
let org: OrganizationWithKeys;
let RETENTION: typeof Retention;

// No job runner: deliveries stay pending, which is the case housekeeping must not break. A database of the
// file's own: housekeeping works over every organization. The job, its schedule and its retention periods are
// the server's (onServer: src/tasks.ts loads every feature).
beforeAll(async () => {
  ({ app, org } = await realmSuite());
  RETENTION = await onServer(app, 'housekeepingRetention');
});
afterAll(() => app.stop());

const runHousekeeping = () => onServer(app, 'runHousekeeping');

async function exists(table: string, where: string, params: unknown[]): Promise<boolean> {
  const { rows } = await app.pool.query(`select 1 from ${table} where ${where}`, params);
  return rows.length > 0;
}

it('is scheduled on the job queue every 15 minutes', async () => {
  expect(await onServer(app, 'cronItems')).toEqual(
    expect.arrayContaining([expect.objectContaining({ task: 'housekeeping', match: '*/15 * * * *' })]),
  );
  expect(await onServer(app, 'taskNames')).toContain('housekeeping');
});

it('deletes what expired and keeps what is live or still owed to a receiver', async () => {
  const now = () => app.clock.now().getTime();
  const member = await createMember(app, org.organization.id);
  const registered = await createOAuthClient(app, org.scope);
  const oldToken = await issueAccessToken(app, registered, member, [Permission.READ_TENANTS]);

  const forgotten = await commitEvent(app, org.scope); // no webhook yet: nothing owed
  const webhook = await createWebhook(app, org.keys.admin, {
    url: 'https://93.184.215.14/hook',
    events: ['*'],
  });
  const owed = await commitEvent(app, org.scope); // a pending delivery to the webhook

  app.clock.advance(RETENTION.eventHistoryMs + 60_000);
  const freshToken = await issueAccessToken(app, registered, member, [Permission.READ_TENANTS]);
  const recent = await commitEvent(app, org.scope);

  await app.pool.query(
    `insert into rate_limits (key, points, expire) values ('hk:old', 1, $1), ('hk:live', 1, $2)`,
    [now() - 1000, now() + 60_000],
  );

  const result = await runHousekeeping();

  expect(result.events).toBe(1);
  expect(await exists('domain_events', 'id = $1', [forgotten])).toBe(false);
  expect(await exists('domain_events', 'id = $1', [owed])).toBe(true);
  expect(await exists('webhook_deliveries', 'event_id = $1 and webhook_id = $2', [owed, webhook.id])).toBe(
    true,
  );
  expect(await exists('domain_events', 'id = $1', [recent])).toBe(true);

  expect(await exists('rate_limits', 'key = $1', ['hk:old'])).toBe(false);
  expect(await exists('rate_limits', 'key = $1', ['hk:live'])).toBe(true);

  expect(result.oauthTokens).toBe(1);
  expect((await app.request('GET', '/v1/tenants', { key: freshToken })).status).toBe(200);
  expect((await app.request('GET', '/v1/tenants', { key: oldToken })).status).toBe(401);
});

it('keeps announced sign-ins long after their events, and deletes them after their own retention', async () => {
  const tenantId = '00000000-0000-4000-8000-00000000a001';
  const insert = (signInId: string, at: Date) =>
    app.pool.query(
      `insert into announced_sign_ins (organization_id, environment, tenant_id, sign_in_id, announced_at)
       values ($1, $2, $3, $4, $5)`,
      [org.scope.organizationId, org.scope.environment, tenantId, signInId, at],
    );
  const now = app.clock.now().getTime();
  await insert('hk-ancient', new Date(now - RETENTION.announcedSignInsMs - 60_000));
  await insert('hk-past-event-history', new Date(now - RETENTION.eventHistoryMs - 60_000));

  const result = await runHousekeeping();

  expect(result.announcedSignIns).toBe(1);
  expect(await exists('announced_sign_ins', 'sign_in_id = $1', ['hk-ancient'])).toBe(false);
  expect(await exists('announced_sign_ins', 'sign_in_id = $1', ['hk-past-event-history'])).toBe(true);
});

it('finds the deliveries of an event by an index that leads with event_id', async () => {
  const { rows } = await app.pool.query<{ indexdef: string }>(
    `select indexdef from pg_indexes where tablename = 'webhook_deliveries'`,
  );
  expect(rows.map((row) => row.indexdef)).toContainEqual(
    expect.stringMatching(/\(event_id\)$/) as unknown as string,
  );
});
