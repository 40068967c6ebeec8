import { onServer } from '../helpers/on-server.js';
import { DAY_MS } from '../../src/core/clock.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { getWithBody, postureTenant } from './posture-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';
import type { DataOf } from '../helpers/api-types.js';

type RecommendationBody = DataOf<'getSecurityRecommendation'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let first: Tenant;
let second: Tenant;

beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({ other: true }));
  first = await postureTenant(app, org.scope, ['mfa-admin-roles', 'dmarc-records', 'tamper-protection']);
  second = await postureTenant(app, org.scope, ['mfa-admin-roles', 'safe-links']);
});
afterAll(() => app.stop());

const list = (query = '', key = org.keys.read) =>
  app.request<Envelope<DataOf<'listSecurityRecommendations'>>>(
    'GET',
    `/api/security/recommendations${query}`,
    { key },
  );
const post = <T = RecommendationBody>(path: string, body: unknown, key = org.keys.write) =>
  app.request<Envelope<T>>('POST', `/api/security/recommendations/${path}`, { key, body });

describe('GET /api/security/recommendations', () => {
  it('lists recommendations affecting a tenant, by severity, with every attribute of SPEC 2.6', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 4 });
    expect(res.body.data.map((r) => r.id)).toEqual([
      'mfa-admin-roles',
      'safe-links',
      'tamper-protection',
      'dmarc-records',
    ]);
    expect(res.body.data[0]).toEqual({
      id: 'mfa-admin-roles',
      title: expect.stringContaining('multifactor'),
      severity: 'Critical',
      category: 'Identity & Access',
      scoreImpact: 10,
      implementationGuide: expect.any(String),
      riskAssessment: expect.any(String),
      status: 'Open',
      affectedTenants: { count: 2, tenantIds: [first.id, second.id].sort() },
    });
    const detail = await app.request<Envelope<RecommendationBody>>(
      'GET',
      `/api/security/recommendations/mfa-admin-roles?tenantIds=${first.id}`,
      { key: org.keys.read },
    );
    expect(detail.body.data.tenants).toEqual([
      {
        tenantId: first.id,
        status: 'Open',
        applySupported: true,
        snoozedUntil: null,
        dismissReason: null,
        statusChangedAt: null,
        statusChangedBy: null,
      },
    ]);
  });

  it('a recommendation that affects no tenant asked about is not shown as Open (status null, count 0)', async () => {
    // safe-links affects only the second tenant; the first meets it.
    const detail = await app.request<Envelope<RecommendationBody>>(
      'GET',
      `/api/security/recommendations/safe-links?tenantIds=${first.id}`,
      { key: org.keys.read },
    );
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      id: 'safe-links',
      status: null,
      affectedTenants: { count: 0, tenantIds: [] },
      tenants: [],
    });
    const affecting = await app.request<Envelope<RecommendationBody>>(
      'GET',
      `/api/security/recommendations/safe-links?tenantIds=${second.id}`,
      { key: org.keys.read },
    );
    expect(affecting.body.data.status).toBe('Open');
  });

  it('takes the SPEC 4.3 filters as a JSON body on the GET, and as query parameters', async () => {
    const byBody = await getWithBody<DataOf<'listSecurityRecommendations'>>(
      app,
      '/api/security/recommendations',
      org.keys.read,
      {
        tenantIds: [first.id],
        severity: ['critical', 'medium'],
        category: 'identity',
        status: 'open',
      },
    );
    expect(byBody.status).toBe(200);
    expect(byBody.body.data.map((r) => r.id)).toEqual(['mfa-admin-roles']);
    expect(byBody.body.data[0].affectedTenants).toEqual({ count: 1, tenantIds: [first.id] });

    const byQuery = await list(
      `?tenantIds=${first.id}&severity=critical,medium&category=Identity&status=open`,
    );
    expect(byQuery.body.data).toEqual(byBody.body.data);

    const email = await list('?category=Email');
    expect(email.body.data.map((r) => r.id)).toEqual(['safe-links', 'dmarc-records']);
    const longForm = await list(`?category=${encodeURIComponent('Email Security')}&severity=medium`);
    expect(longForm.body.data.map((r) => r.id)).toEqual(['dmarc-records']);
  });

  it('lets the query string win over the body when both name a filter', async () => {
    const res = await getWithBody<DataOf<'listSecurityRecommendations'>>(
      app,
      '/api/security/recommendations?category=device',
      org.keys.read,
      { category: 'email', severity: ['medium'] },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => r.id)).toEqual(['tamper-protection']);
  });

  it('400 naming the field for a filter it does not know; unknown body fields too', async () => {
    const bad = await list('?severity=critical,urgent');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details.fields).toEqual([{ field: 'severity.1', problem: expect.any(String) }]);
    const category = await getWithBody(app, '/api/security/recommendations', org.keys.read, {
      category: 'Physical',
    });
    expect(category.status).toBe(400);
    expect(category.body.error?.details.fields).toEqual([{ field: 'category', problem: expect.any(String) }]);
    const unknown = await getWithBody(app, '/api/security/recommendations', org.keys.read, { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.details.fields).toEqual([
      { field: 'colour', problem: 'is not a known field' },
    ]);
  });

  it('404 naming tenants of another organization; the other organization sees none of these', async () => {
    const theirs = await postureTenant(app, other.scope, ['mfa-admin-roles']);
    const res = await list(`?tenantIds=${first.id},${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error?.details).toMatchObject({ ids: [theirs.id] });
    const mine = await list('', other.keys.read);
    expect(mine.body.data.map((r) => r.affectedTenants.tenantIds)).toEqual([[theirs.id]]);
  });

  it('costs the same number of SQL statements at two page sizes', async () => {
    await list('?limit=1');
    const small = await app.sql.during(() => list('?limit=1'));
    const large = await app.sql.during(() => list('?limit=4'));
    expect(large).toBe(small);
  });
});

describe('dismiss, snooze and reopen (SPEC 3.3)', () => {
  it('dismisses with a reason kept for audit, refuses a second dismiss with 409, and reopens', async () => {
    const noReason = await post('tamper-protection/dismiss', { tenantIds: [first.id], reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error?.details.fields).toEqual([{ field: 'reason', problem: expect.any(String) }]);
    const { rows: none } = await app.pool.query('select 1 from recommendation_status_changes');
    expect(none).toHaveLength(0);

    const readOnly = await post(
      'tamper-protection/dismiss',
      { tenantIds: [first.id], reason: 'x' },
      org.keys.read,
    );
    expect(readOnly.status).toBe(403);

    const dismissed = await post('tamper-protection/dismiss', {
      tenantIds: [first.id],
      reason: 'Third-party EDR enforces it',
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data.tenants).toEqual([
      expect.objectContaining({
        tenantId: first.id,
        status: 'Dismissed',
        dismissReason: 'Third-party EDR enforces it',
        statusChangedBy: apiKeyActor(),
      }),
    ]);
    const { rows: audit } = await app.pool.query(
      `select from_status, to_status, reason, changed_by, changed_at from recommendation_status_changes
        where tenant_id = $1 and recommendation_id = 'tamper-protection'`,
      [first.id],
    );
    expect(audit).toEqual([
      {
        from_status: 'Open',
        to_status: 'Dismissed',
        reason: 'Third-party EDR enforces it',
        changed_by: expect.stringMatching(/^api_key:/),
        changed_at: app.clock.now(),
      },
    ]);

    const again = await post('tamper-protection/dismiss', { tenantIds: [first.id], reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error?.details).toEqual({
      tenantId: first.id,
      from: 'Dismissed',
      to: 'Dismissed',
      allowed: ['Open'],
    });
    const snoozeDismissed = await post('tamper-protection/snooze', { tenantIds: [first.id], days: 7 });
    expect(snoozeDismissed.status).toBe(409);

    const reopened = await post('tamper-protection/reopen', { tenantIds: [first.id] });
    expect(reopened.body.data.tenants[0].status).toBe('Open');
    const reopenOpen = await post('tamper-protection/reopen', { tenantIds: [first.id] });
    expect(reopenOpen.status).toBe(409);
    expect(reopenOpen.body.error?.details).toMatchObject({
      from: 'Open',
      to: 'Open',
      allowed: ['Dismissed', 'Snoozed'],
    });
  });

  it('refuses the whole request when one tenant cannot move (nothing written)', async () => {
    // safe-links is met in the first tenant: dismissing it there is refused, and so is the second tenant's move.
    const res = await post('safe-links/dismiss', {
      tenantIds: [second.id, first.id],
      reason: 'accepted risk',
    });
    expect(res.status).toBe(409);
    const { rows } = await app.pool.query(
      `select status from tenant_recommendations where tenant_id = $1 and recommendation_id = 'safe-links'`,
      [second.id],
    );
    expect(rows).toEqual([{ status: 'Open' }]);
  });

  it.each([7, 30, 90])(
    'snoozes for %i days and the scheduled job reopens it exactly when the period ends',
    async (days) => {
      const start = app.clock.now();
      const res = await post('dmarc-records/snooze', { tenantIds: [first.id], days });
      expect(res.status).toBe(200);
      expect(res.body.data.tenants[0]).toMatchObject({
        status: 'Snoozed',
        snoozedUntil: new Date(start.getTime() + days * DAY_MS).toISOString(),
      });
      expect((await list('?status=snoozed')).body.data.map((r) => r.id)).toEqual(['dmarc-records']);

      app.clock.advance(days * DAY_MS - 1);
      expect(await onServer(app, 'expireSnoozes')).toBe(0);
      expect((await list('?status=snoozed')).body.data.map((r) => r.id)).toEqual(['dmarc-records']);

      app.clock.advance(1);
      expect(await onServer(app, 'expireSnoozes')).toBe(1);
      const open = await app.request<Envelope<RecommendationBody>>(
        'GET',
        `/api/security/recommendations/dmarc-records?tenantIds=${first.id}`,
        { key: org.keys.read },
      );
      expect(open.body.data.tenants[0]).toMatchObject({
        status: 'Open',
        statusChangedBy: {
          type: 'SYSTEM',
          id: 'snooze-expiry',
          name: 'Snooze expiry',
          email: null,
          oauthClientName: null,
        },
      });
    },
  );

  it('refuses a snooze of any other length with 400 naming days, and schedules the expiry job', async () => {
    for (const days of [0, 1, 14, 365]) {
      const res = await post('dmarc-records/snooze', { tenantIds: [first.id], days });
      expect(res.status).toBe(400);
      expect(res.body.error?.details.fields).toEqual([{ field: 'days', problem: 'must be 7, 30 or 90' }]);
    }
    const cronItems = await onServer(app, 'cronItems');
    expect(cronItems.map((item) => item.task)).toContain('recommendation-snooze-expiry');
  });

  it('works the same through GraphQL, with UPPER_SNAKE enums and NOT_FOUND for a foreign tenant', async () => {
    const res = await app.graphql<{
      snoozeSecurityRecommendation: { status: string; tenants: Array<{ status: string }> };
    }>(
      org.keys.write,
      `mutation { snoozeSecurityRecommendation(id: "mfa-admin-roles", tenantIds: ["${second.id}"], days: 30) {
         status tenants { status } } }`,
    );
    expect(res.body.data?.snoozeSecurityRecommendation.tenants).toEqual([{ status: 'SNOOZED' }]);
    const listed = await app.graphql<{
      securityRecommendations: { items: Array<{ id: string; status: string }> };
    }>(
      org.keys.read,
      `{ securityRecommendations(category: "identity", tenantIds: ["${second.id}"]) { items { id status } } }`,
    );
    expect(listed.body.data?.securityRecommendations.items).toEqual([
      { id: 'mfa-admin-roles', status: 'SNOOZED' },
    ]);
    const theirs = await postureTenant(app, other.scope);
    const foreign = await app.graphql(
      org.keys.write,
      `mutation { reopenSecurityRecommendation(id: "mfa-admin-roles", tenantIds: ["${theirs.id}"]) { id } }`,
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const unknown = await post('no-such-thing/reopen', { tenantIds: [first.id] });
    expect(unknown.status).toBe(404);
  });
});
