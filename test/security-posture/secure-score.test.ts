import { DAY_MS } from '../../src/core/clock.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { postureTenant } from './posture-kit.js';
import type { ItemOf } from '../helpers/api-types.js';

type ScoreBody = ItemOf<'listSecureScores'>;

// The jobs' runs (recommendation apply, the daily secure score, the portal's recount of marked tenants) and the
// cron items are the server's (onServer). The daily job records every tenant of the shared database, as in
// production; the file reads its own tenants' days.
let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

/** Points of the catalog: 10+9+8+5+4+6+4+7+5+6+5+2 = 71. */
const MAX = 71;

beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({ other: true }));
  // Unmet: mfa-admin-roles (10, Identity), safe-links (6, Email), tamper-protection (5, Device).
  tenant = await postureTenant(app, org.scope, ['mfa-admin-roles', 'safe-links', 'tamper-protection']);
});
afterAll(() => app.stop());

const scores = (query = '', key = org.keys.read) =>
  app.request<Envelope<ScoreBody[]>>('GET', `/api/security-vendor/secure-score${query}`, { key });
const scoreOf = async (t: Tenant) => (await scores(`?tenantIds=${t.id}`)).body.data[0];

describe('GET /api/security-vendor/secure-score', () => {
  it('gives each tenant its score, max score and percentage, by category', async () => {
    const res = await scores(`?tenantIds=${tenant.id}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 1 });
    expect(res.body.data[0]).toMatchObject({
      tenantId: tenant.id,
      tenantName: tenant.name,
      // The sandbox's score is computed from our recommendations, on our points scale.
      source: 'recommendations',
      averageComparativeScores: [],
      score: MAX - 21,
      maxScore: MAX,
      percentage: Math.round((1000 * (MAX - 21)) / MAX) / 10,
      history: [],
    });
    expect(res.body.data[0].byCategory).toEqual({
      identityAndAccess: { score: 17, maxScore: 27 },
      dataProtection: { score: 9, maxScore: 9 },
      emailSecurity: { score: 4, maxScore: 10 },
      deviceSecurity: { score: 7, maxScore: 12 },
      threatProtection: { score: 6, maxScore: 6 },
      auditAndCompliance: { score: 7, maxScore: 7 },
    });
  });

  it('moves when a recommendation is applied (score) and when one is dismissed (max score)', async () => {
    const applied = await app.request<Envelope<{ id: string }>>(
      'POST',
      '/api/security/recommendations/safe-links/apply',
      {
        key: org.keys.write,
        body: { tenantIds: [tenant.id] },
      },
    );
    await onServer(app, 'applyRecommendation', org.scope, applied.body.data.id);
    expect(await scoreOf(tenant)).toMatchObject({ score: MAX - 15, maxScore: MAX });

    await app.request('POST', '/api/security/recommendations/tamper-protection/dismiss', {
      key: org.keys.write,
      body: { tenantIds: [tenant.id], reason: 'Third-party EDR' },
    });
    expect(await scoreOf(tenant)).toMatchObject({ score: MAX - 15, maxScore: MAX - 5 });
  });

  it('keeps a daily history recorded by the scheduled job, oldest first, for historyDays', async () => {
    const fresh = await postureTenant(app, org.scope, ['mfa-all-users']);
    expect((await onServer(app, 'cronItems')).map((item) => item.task)).toContain('secure-score-snapshot');
    await onServer(app, 'recordSecureScoreDays');
    await onServer(app, 'recordSecureScoreDays'); // the same day twice: one row
    app.clock.advance(DAY_MS);
    await app.request('POST', '/api/security/recommendations/mfa-all-users/dismiss', {
      key: org.keys.write,
      body: { tenantIds: [fresh.id], reason: 'Break-glass tenant' },
    });
    await onServer(app, 'recordSecureScoreDays');
    const today = app.clock.now().toISOString().slice(0, 10);
    const yesterday = new Date(app.clock.now().getTime() - DAY_MS).toISOString().slice(0, 10);
    const { history } = await scoreOf(fresh);
    expect(history).toEqual([
      {
        day: yesterday,
        score: MAX - 9,
        maxScore: MAX,
        percentage: Math.round((1000 * (MAX - 9)) / MAX) / 10,
      },
      { day: today, score: MAX - 9, maxScore: MAX - 9, percentage: 100 },
    ]);
    const short = await scores(`?tenantIds=${fresh.id}&historyDays=1`);
    expect(short.body.data[0].history.map((day) => day.day)).toEqual([today]);
  });

  it("needs msp:read; 404 for another organization's tenant; 400 for a bad historyDays; none of theirs listed", async () => {
    const theirs = await createTenant(app, other.scope);
    const foreign = await scores(`?tenantIds=${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.details).toMatchObject({ ids: [theirs.id] });
    const bad = await scores('?historyDays=365');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details.fields).toEqual([{ field: 'historyDays', problem: expect.any(String) }]);
    const all = await scores('');
    expect(all.body.data.map((s) => s.tenantId)).not.toContain(theirs.id);
    const gql = await app.graphql<{
      secureScores: {
        items: Array<{ tenantId: string; byCategory: { emailSecurity: { maxScore: number } } }>;
      };
    }>(
      org.keys.read,
      `{ secureScores(tenantIds: ["${tenant.id}"]) { items { tenantId byCategory { emailSecurity { maxScore } } } } }`,
    );
    expect(gql.body.data?.secureScores.items[0].byCategory.emailSecurity.maxScore).toBe(10);
  });

  it('costs the same number of SQL statements at two page sizes', async () => {
    await postureTenant(app, org.scope, ['dlp-policies']);
    await scores('?limit=1');
    const small = await app.sql.during(() => scores('?limit=1'));
    const large = await app.sql.during(() => scores('?limit=3'));
    expect(large).toBe(small);
  });

  it('feeds tenant health: below 40 % is warning, below 20 % critical (docs/tenant-health.md)', async () => {
    // The record reads the stored score (docs/tenant-health.md): our writes marked these tenants, and the
    // one-minute job recounts marked tenants.
    const healthOf = async (t: Tenant) => {
      await onServer(app, 'recountMarkedTenants');
      return (
        await app.request<Envelope<{ health: string }>>('GET', `/v1/tenants/${t.id}`, { key: org.keys.read })
      ).body.data.health;
    };
    const good = await postureTenant(app, org.scope, ['mailbox-auditing']);
    // Unmet: 10 + 9 + 8 + 5 + 7 + 6 = 45 of 71 points, so 26 of 71 (36.6 %).
    const weak = await postureTenant(app, org.scope, [
      'mfa-admin-roles',
      'mfa-all-users',
      'block-legacy-authentication',
      'dlp-policies',
      'require-compliant-devices',
      'safe-links',
    ]);
    const bad = await postureTenant(app, org.scope);
    expect(await healthOf(good)).toBe('healthy');
    expect((await scoreOf(weak)).percentage).toBeLessThan(40);
    expect(await healthOf(weak)).toBe('warning');
    expect(await healthOf(bad)).toBe('critical');
    // The portal reads the same stored aggregates.
    const stats = await app.request<Envelope<Record<string, number>>>(
      'GET',
      '/api/msp-portal/tenants/stats',
      {
        key: org.keys.read,
      },
    );
    expect(stats.body.data.critical_count).toBeGreaterThanOrEqual(1);
  });
});
