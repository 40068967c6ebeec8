import { ALERT_MOVES } from '../../src/alerts/alert-status.js';
import { AlertStatus } from '../../src/alerts/alert.enums.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createMember } from '../factories/oauth.js';
import { type OrganizationWithKeys, createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { api, eventsOf, fieldsOf, securityCloud, seedSecurity, sync } from './security-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';

type AlertBody = ItemOf<'listSecurityAlerts'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(app.clock.now().getTime() - ms).toISOString();

/** A tenant with five alerts of known severities, categories, sources and ages. */
async function alertTenant(): Promise<{ tenant: Tenant; ids: string[] }> {
  const tenant = await createTenant(app, org.scope);
  const { alertIds } = await seedSecurity(app, org.scope, tenant, {
    alerts: [
      {
        title: 'Malware on LAPTOP-1',
        severity: 'High',
        category: 'Malware',
        source: 'Defender for Endpoint',
        affectedEntity: 'LAPTOP-1',
        createdAt: ago(5 * HOUR),
      },
      {
        title: 'Phishing mail',
        severity: 'Medium',
        category: 'Phishing',
        source: 'Office 365',
        affectedEntity: 'ann@contoso.com',
        createdAt: ago(4 * HOUR),
      },
      {
        title: 'Impossible travel',
        severity: 'High',
        category: 'Suspicious sign-in',
        source: 'Identity Protection',
        affectedEntity: 'bob@contoso.com',
        createdAt: ago(3 * HOUR),
      },
      {
        title: 'PUA blocked',
        severity: 'Low',
        category: 'Malware',
        source: 'Defender for Endpoint',
        affectedEntity: 'LAPTOP-2',
        createdAt: ago(2 * HOUR),
      },
      {
        title: 'Mass download',
        severity: 'Informational',
        category: 'Data exfiltration',
        source: 'Cloud App Security',
        affectedEntity: 'ann@contoso.com',
        createdAt: ago(1 * HOUR),
      },
    ],
  });
  return { tenant, ids: alertIds };
}

describe('sync', () => {
  it('copies the cloud’s alerts, emits alert.created for new ones only, and changes nothing when run again', async () => {
    const { tenant } = await alertTenant();
    expect(await eventsOf(app, tenant.id, 'alert.created')).toHaveLength(5);
    const again = await sync(app, org.scope, tenant.id);
    expect(again).toMatchObject({ alertsCreated: 0, alertsUpdated: 0, devicesCreated: 0 });
    expect(await eventsOf(app, tenant.id, 'alert.created')).toHaveLength(5);
    const created = (await eventsOf(app, tenant.id, 'alert.created')).find(
      (event) => event.details.title === 'Malware on LAPTOP-1',
    );
    expect(created).toMatchObject({ severity: 'high', details: { category: 'Malware', status: 'New' } });
  });
});

describe('GET /api/security/alerts', () => {
  it('lists newest first, sorts by severity, and pages per DECISIONS', async () => {
    const { tenant, ids } = await alertTenant();
    const newest = await api<AlertBody[]>(app, 'GET', '/alerts', { key: org.keys.read, tenantId: tenant.id });
    expect(newest.status).toBe(200);
    expect(newest.body.data.map((a) => a.id)).toEqual([...ids].reverse());
    expect(newest.body.meta).toEqual({ page: 1, limit: 25, total: 5 });
    const bySeverity = await api<AlertBody[]>(app, 'GET', '/alerts?sort=severity&limit=2&page=1', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(bySeverity.body.data.map((a) => a.title)).toEqual(['Impossible travel', 'Malware on LAPTOP-1']);
    expect(bySeverity.body.meta).toEqual({ page: 1, limit: 2, total: 5 });
    const oldest = await api<AlertBody[]>(app, 'GET', '/alerts?sort=oldest', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(oldest.body.data.map((a) => a.id)).toEqual(ids);
  });

  it('combines filters; several values of one filter match any of them', async () => {
    const { tenant } = await alertTenant();
    const list = async (query: string) =>
      (
        await api<AlertBody[]>(app, 'GET', `/alerts?${query}`, { key: org.keys.read, tenantId: tenant.id })
      ).body.data
        .map((a) => a.title)
        .sort();
    expect(await list('severity=High,Low')).toEqual([
      'Impossible travel',
      'Malware on LAPTOP-1',
      'PUA blocked',
    ]);
    expect(await list('severity=High&severity=Low&category=Malware')).toEqual([
      'Malware on LAPTOP-1',
      'PUA blocked',
    ]);
    expect(await list('source=Office%20365')).toEqual(['Phishing mail']);
    expect(await list('search=ann%40contoso')).toEqual(['Mass download', 'Phishing mail']);
    expect(await list('search=laptop&status=New')).toEqual(['Malware on LAPTOP-1', 'PUA blocked']);
    expect(
      await list(
        `createdFrom=${encodeURIComponent(ago(3 * HOUR))}&createdTo=${encodeURIComponent(ago(HOUR))}`,
      ),
    ).toEqual(['Impossible travel', 'PUA blocked']);
    expect(await list('assignedTo=unassigned&status=Resolved')).toEqual([]);
  });

  it('reads a date alone as its UTC day: createdFrom from its start, createdTo up to its end', async () => {
    const tenant = await createTenant(app, org.scope);
    const at = [
      '2026-11-19T23:59:59.999Z',
      '2026-11-20T00:00:00.000Z',
      '2026-11-20T23:59:59.999Z',
      '2026-11-21T00:00:00.000Z',
    ];
    await seedSecurity(app, org.scope, tenant, {
      alerts: at.map((createdAt) => ({ title: createdAt, createdAt })),
    });
    const list = async (query: string) => {
      const res = await api<AlertBody[]>(app, 'GET', `/alerts?sort=oldest&${query}`, {
        key: org.keys.read,
        tenantId: tenant.id,
      });
      expect(res.status).toBe(200);
      return res.body.data.map((a) => a.title);
    };
    expect(await list('createdFrom=2026-11-20&createdTo=2026-11-20')).toEqual([at[1], at[2]]);
    expect(await list('createdFrom=2026-11-20')).toEqual([at[1], at[2], at[3]]);
    expect(await list('createdTo=2026-11-19')).toEqual([at[0]]);
    // A date-time keeps its meaning (createdTo excluded).
    expect(await list(`createdTo=${encodeURIComponent(at[2])}`)).toEqual([at[0], at[1]]);
    // An impossible date is not rolled over into the next month.
    const bad = await api(app, 'GET', '/alerts?createdFrom=2026-02-30', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).map((f) => f.field)).toContain('createdFrom');
  });

  it('refuses an unknown severity, a bad date and a bad assignee with 400 naming the field', async () => {
    const { tenant } = await alertTenant();
    for (const [query, field] of [
      ['severity=Critical', 'severity'],
      ['createdFrom=yesterday', 'createdFrom'],
      ['assignedTo=bob', 'assignedTo'],
      ['sort=random', 'sort'],
      ['limit=101', 'limit'],
    ]) {
      const res = await api(app, 'GET', `/alerts?${query}`, { key: org.keys.read, tenantId: tenant.id });
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      // A list element is named with its index (severity.0).
      expect(fieldsOf(res.body).map((f) => f.field.split('.')[0])).toContain(field);
    }
  });
});

describe('PATCH /api/security/alerts/:id', () => {
  const statuses = Object.values(AlertStatus);
  const pairs = statuses.flatMap((from) => statuses.map((to) => [from, to] as const));

  it.each(pairs)('%s → %s follows the DECISIONS state machine', async (from, to) => {
    const tenant = await createTenant(app, org.scope);
    const { alertIds } = await seedSecurity(app, org.scope, tenant, { alerts: [{ status: from }] });
    const res = await api<AlertBody>(app, 'PATCH', `/alerts/${alertIds[0]}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { status: to },
    });
    const allowed = from === to || ALERT_MOVES[from].includes(to);
    if (allowed) {
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe(to);
    } else {
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({
        code: 'CONFLICT',
        details: { from, to, allowed: ALERT_MOVES[from] },
      });
    }
    const updates = await eventsOf(app, tenant.id, 'alert.updated');
    expect(updates).toHaveLength(allowed && from !== to ? 1 : 0);
    if (updates.length > 0) expect(updates[0].details).toMatchObject({ from, to, alertId: alertIds[0] });
    // The cloud was told (first), and a sync keeps our status.
    const cloudAlert = (await securityCloud(app).listAlerts(tenant.externalId))[0];
    expect(cloudAlert.status).toBe(allowed ? to : from);
  });

  it('assigns to a member of the organization, unassigns with null, and refuses a stranger', async () => {
    const { tenant, ids } = await alertTenant();
    const member = await createMember(app, org.organization.id);
    const stranger = await createMember(app, other.organization.id);
    const path = `/alerts/${ids[0]}`;
    const assigned = await api<AlertBody>(app, 'PATCH', path, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { assignedToId: member.id, status: 'In Progress' },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ assignedToId: member.id, status: 'In Progress' });
    expect(assigned.body.data.assignedTo).toContain('@');
    const filtered = await api<AlertBody[]>(app, 'GET', `/alerts?assignedTo=${member.id}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(filtered.body.data.map((a) => a.id)).toEqual([ids[0]]);
    const refused = await api(app, 'PATCH', path, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { assignedToId: stranger.id },
    });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused.body)).toEqual([{ field: 'assignedToId', problem: expect.any(String) }]);
    const unassigned = await api<AlertBody>(app, 'PATCH', path, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { assignedToId: null },
    });
    expect(unassigned.body.data).toMatchObject({
      assignedToId: null,
      assignedTo: null,
      status: 'In Progress',
    });
    expect(await eventsOf(app, tenant.id, 'alert.updated')).toHaveLength(2);
  });

  it('refuses an unknown status, an empty body and a Read key, writing nothing', async () => {
    const { tenant, ids } = await alertTenant();
    const path = `/alerts/${ids[0]}`;
    const unknown = await api(app, 'PATCH', path, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { status: 'Closed' },
    });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body).map((f) => f.field)).toEqual(['status']);
    const empty = await api(app, 'PATCH', path, { key: org.keys.write, tenantId: tenant.id, body: {} });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body).map((f) => f.field)).toEqual(['status']);
    const forbidden = await api(app, 'PATCH', path, {
      key: org.keys.read,
      tenantId: tenant.id,
      body: { status: 'Resolved' },
    });
    expect(forbidden.status).toBe(403);
    const { rows } = await app.pool.query('select status, updated_at from security_alerts where id = $1', [
      ids[0],
    ]);
    expect(rows[0].status).toBe('New');
    expect(await eventsOf(app, tenant.id, 'alert.updated')).toEqual([]);
  });
});

describe('comments', () => {
  it('adds notes by the key, dated by the clock, shown oldest first in the detail', async () => {
    const { tenant, ids } = await alertTenant();
    const first = await api<DataOf<'addSecurityAlertComment'>>(app, 'POST', `/alerts/${ids[1]}/comments`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { text: '  Checked the mail headers.  ' },
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      text: 'Checked the mail headers.',
      createdAt: app.clock.now().toISOString(),
    });
    expect(first.body.data.authorName).toContain('API key');
    expect(first.body.data.author).toEqual(apiKeyActor('Write key'));
    app.clock.advance(60_000);
    await api(app, 'POST', `/alerts/${ids[1]}/comments`, {
      key: org.keys.admin,
      tenantId: tenant.id,
      body: { text: 'x'.repeat(4000) },
    });
    const detail = await api<DataOf<'getSecurityAlert'>>(app, 'GET', `/alerts/${ids[1]}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.data.comments?.map((c) => c.text.length)).toEqual([25, 4000]);
    // Each note reached the (simulated) cloud first, naming its author there.
    const { rows: upstream } = await app.pool.query<{ comment: string }>(
      `select data->>'comment' as comment from sim_cloud_objects
        where kind = 'alert_comment' and tenant_external_id = $1 order by external_id`,
      [tenant.externalId],
    );
    expect(upstream.map((row) => row.comment)).toEqual([
      `${first.body.data.authorName}: Checked the mail headers.`,
      expect.stringMatching(/ \(API key\): x{4000}$/),
    ]);
  });

  it.each([
    ['empty', '   '],
    ['too long', 'x'.repeat(4001)],
  ])('refuses a %s note with 400 naming text, nothing written', async (_name, text) => {
    const { tenant, ids } = await alertTenant();
    const res = await api(app, 'POST', `/alerts/${ids[0]}/comments`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { text },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body).map((f) => f.field)).toEqual(['text']);
    const { rows } = await app.pool.query(
      'select count(*)::int as n from security_alert_comments where alert_id = $1',
      [ids[0]],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('comments are paged and capped (issue #32 item 3)', () => {
  /** `count` notes of 4,000 characters on the alert, written directly (the cap is what is tested). */
  async function notes(alertId: string, count: number): Promise<void> {
    await app.pool.query(
      `insert into security_alert_comments (id, organization_id, environment, alert_id, text, author, author_name, created_at)
       select gen_random_uuid(), organization_id, environment, id, repeat('n', 4000), 'test', 'test',
              now() + i * interval '1 second'
         from security_alerts, generate_series(1, $2) as i where id = $1`,
      [alertId, count],
    );
  }

  it('answers a page of at most 100 (limit 101 is 400) in GraphQL and REST, with the count', async () => {
    const { tenant, ids } = await alertTenant();
    await notes(ids[0], 130);
    const detail = await api<DataOf<'getSecurityAlert'>>(app, 'GET', `/alerts/${ids[0]}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(detail.body.data.comments).toHaveLength(25);
    expect(detail.body.data.commentCount).toBe(130);
    const page = await api<DataOf<'listSecurityAlertComments'>>(
      app,
      'GET',
      `/alerts/${ids[0]}/comments?page=2&limit=100`,
      { key: org.keys.read, tenantId: tenant.id },
    );
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(30);
    const tooMany = await api(app, 'GET', `/alerts/${ids[0]}/comments?limit=101`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(tooMany.status).toBe(400);
    expect(fieldsOf(tooMany.body).map((f) => f.field)).toEqual(['limit']);
    const foreign = await api(app, 'GET', `/alerts/${ids[0]}/comments`, {
      key: other.keys.read,
      tenantId: tenant.id,
    });
    expect(foreign.status).toBe(404);
    const graph = await app.graphql<{ securityAlert: { comments: unknown[] } }>(
      org.keys.read,
      'query ($t: UUID!, $id: UUID!) { securityAlert(tenantId: $t, id: $id) { comments(limit: 100, page: 2) { id } } }',
      { t: tenant.id, id: ids[0] },
    );
    expect(graph.body.data?.securityAlert.comments).toHaveLength(30);
    const unbounded = await app.graphql(
      org.keys.read,
      'query ($t: UUID!, $id: UUID!) { securityAlert(tenantId: $t, id: $id) { comments(limit: 3000) { id } } }',
      { t: tenant.id, id: ids[0] },
    );
    expect(unbounded.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
  });

  it('refuses the 501st note with 409 naming the limit, nothing written', async () => {
    const { tenant, ids } = await alertTenant();
    await notes(ids[1], 500);
    const refused = await api(app, 'POST', `/alerts/${ids[1]}/comments`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { text: 'one more' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ details: { reason: 'COMMENT_LIMIT', limit: 500 } });
    const { rows } = await app.pool.query(
      'select count(*)::int as n from security_alert_comments where alert_id = $1',
      [ids[1]],
    );
    expect(rows[0].n).toBe(500);
  });
});

describe('GET /api/security/alerts/statistics', () => {
  /** The same counts, recounted with plain SQL at the clock's time. */
  async function recount(tenantId: string) {
    const now = app.clock.now();
    const { rows } = await app.pool.query<{ high: number; medium: number; total: number; open: number }>(
      `select count(*) filter (where severity = 'High' and status in ('New', 'In Progress') and created_at < $2)::int as high,
              count(*) filter (where severity = 'Medium' and status in ('New', 'In Progress') and created_at < $3)::int as medium,
              count(*)::int as total,
              count(*) filter (where status in ('New', 'In Progress'))::int as open
         from security_alerts where tenant_id = $1`,
      [tenantId, new Date(now.getTime() - HOUR), new Date(now.getTime() - 24 * HOUR)],
    );
    return rows[0];
  }

  interface Stats {
    total: number;
    open: number;
    bySeverity: Array<{ severity: string; count: number }>;
    byCategory: Array<{ category: string; count: number }>;
    byStatus: Array<{ status: string; count: number }>;
    overdue: { high: number; medium: number; total: number };
  }

  it('counts by severity, category and status and the overdue alerts, equal to a SQL recount as things change', async () => {
    const tenant = await createTenant(app, org.scope);
    const { alertIds } = await seedSecurity(app, org.scope, tenant, {
      alerts: [
        { severity: 'High', category: 'Malware', createdAt: ago(30 * 60_000) },
        { severity: 'High', category: 'Malware', createdAt: ago(2 * HOUR) },
        { severity: 'Medium', category: 'Phishing', createdAt: ago(23 * HOUR) },
        { severity: 'Medium', category: 'Phishing', createdAt: ago(25 * HOUR), status: 'Resolved' },
        { severity: 'Low', category: 'Phishing', createdAt: ago(48 * HOUR) },
      ],
    });
    const stats = async () => {
      const res = await api<Stats>(app, 'GET', '/alerts/statistics', {
        key: org.keys.read,
        tenantId: tenant.id,
      });
      expect(res.status).toBe(200);
      const expected = await recount(tenant.id);
      expect(res.body.data.overdue).toMatchObject({ high: expected.high, medium: expected.medium });
      expect(res.body.data).toMatchObject({ total: expected.total, open: expected.open });
      return res.body.data;
    };
    const before = await stats();
    expect(before.overdue).toMatchObject({ high: 1, medium: 0, total: 1 });
    expect(before.bySeverity).toEqual([
      { severity: 'High', count: 2 },
      { severity: 'Medium', count: 2 },
      { severity: 'Low', count: 1 },
      { severity: 'Informational', count: 0 },
    ]);
    expect(before.byCategory).toEqual([
      { category: 'Phishing', count: 3 },
      { category: 'Malware', count: 2 },
    ]);
    expect(before.byStatus).toContainEqual({ status: 'Resolved', count: 1 });

    app.clock.advance(HOUR + 60_000); // the first High alert passes its 1 h target, the open Medium one its 24 h
    expect((await stats()).overdue).toMatchObject({ high: 2, medium: 1, total: 3 });

    await api(app, 'PATCH', `/alerts/${alertIds[1]}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { status: 'Resolved' },
    });
    await api(app, 'PATCH', `/alerts/${alertIds[2]}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { status: 'Dismissed' },
    });
    const after = await stats();
    expect(after.overdue).toMatchObject({ high: 1, medium: 0, total: 1 });
    expect(after.open).toBe(2);
  });

  it('costs the same statements with 5 or 50 alerts', async () => {
    const small = await alertTenant();
    const large = await createTenant(app, org.scope);
    await seedSecurity(app, org.scope, large, {
      alerts: Array.from({ length: 50 }, (_, i) => ({ category: `C${i % 7}` })),
    });
    const read = (tenantId: string) =>
      api(app, 'GET', '/alerts/statistics', { key: org.keys.read, tenantId });
    await read(small.tenant.id);
    const a = await app.sql.during(() => read(small.tenant.id));
    const b = await app.sql.during(() => read(large.id));
    expect(b).toBe(a);
  });
});

describe('tenant selection and isolation', () => {
  it.each([
    ['GET', '/alerts'],
    ['GET', '/alerts/statistics'],
    ['GET', '/alerts/:id'],
    ['PATCH', '/alerts/:id'],
    ['POST', '/alerts/:id/comments'],
  ])(
    '%s %s: 400 without X-Tenant-Id, 404 for another organization’s tenant or alert',
    async (method, path) => {
      const { tenant, ids } = await alertTenant();
      const at = path.replace(':id', ids[0]);
      const body =
        method === 'PATCH' ? { status: 'In Progress' } : method === 'POST' ? { text: 'note' } : undefined;
      const missing = await api(app, method, at, { key: org.keys.admin, body });
      expect(missing.status).toBe(400);
      expect(fieldsOf(missing.body).map((f) => f.field)).toEqual(['X-Tenant-Id']);
      const foreignTenant = await api(app, method, at, { key: other.keys.admin, tenantId: tenant.id, body });
      expect(foreignTenant.status).toBe(404);
      if (path.includes(':id')) {
        const mine = await createTenant(app, other.scope);
        const foreignAlert = await api(app, method, at, { key: other.keys.admin, tenantId: mine.id, body });
        expect(foreignAlert.status).toBe(404);
      }
      const { rows } = await app.pool.query(
        `select a.status, (select count(*)::int from security_alert_comments c where c.alert_id = a.id) as comments
         from security_alerts a where a.id = $1`,
        [ids[0]],
      );
      expect(rows[0]).toEqual({ status: 'New', comments: 0 });
    },
  );
});

describe('GraphQL', () => {
  it('lists with filters in UPPER_SNAKE enums, moves a status and answers CONFLICT with details', async () => {
    const { tenant, ids } = await alertTenant();
    const list = await app.graphql<{ securityAlerts: { items: Array<{ title: string; severity: string }> } }>(
      org.keys.read,
      `query($t: UUID!) { securityAlerts(tenantId: $t, filter: { severity: [HIGH], search: "travel" }, sort: SEVERITY) { items { title severity } } }`,
      { t: tenant.id },
    );
    expect(list.body.data?.securityAlerts.items).toEqual([{ title: 'Impossible travel', severity: 'HIGH' }]);
    const move = `mutation($t: UUID!, $id: UUID!, $s: AlertStatus) { updateSecurityAlert(tenantId: $t, id: $id, input: { status: $s }) { status } }`;
    const resolved = await app.graphql<{ updateSecurityAlert: { status: string } }>(org.keys.write, move, {
      t: tenant.id,
      id: ids[0],
      s: 'RESOLVED',
    });
    expect(resolved.body.data?.updateSecurityAlert.status).toBe('RESOLVED');
    const refused = await app.graphql(org.keys.write, move, { t: tenant.id, id: ids[0], s: 'NEW' });
    expect(refused.body.errors?.[0].extensions).toMatchObject({
      code: 'CONFLICT',
      details: { from: 'Resolved', to: 'New', allowed: ['In Progress'] },
    });
    const foreign = await app.graphql(
      other.keys.read,
      `query($t: UUID!, $id: UUID!) { securityAlert(tenantId: $t, id: $id) { id } }`,
      {
        t: tenant.id,
        id: ids[0],
      },
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const stats = await app.graphql<{ securityAlertStatistics: { total: number } }>(
      org.keys.read,
      `query($t: UUID!) { securityAlertStatistics(tenantId: $t) { total } }`,
      { t: tenant.id },
    );
    expect(stats.body.data?.securityAlertStatistics.total).toBe(5);
    const comment = await app.graphql(
      org.keys.read,
      `mutation($t: UUID!, $id: UUID!) { addSecurityAlertComment(tenantId: $t, id: $id, input: { text: "x" }) { id } }`,
      {
        t: tenant.id,
        id: ids[0],
      },
    );
    expect(comment.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
