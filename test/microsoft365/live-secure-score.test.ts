import type { SecureScore } from '@microsoft/microsoft-graph-types';
import { DAY_MS } from '../../src/core/clock.js';
import type { ItemOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import { fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { onServer } from '../helpers/on-server.js';
import type { SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { graphCalls, onboardAndSyncLive, sharedLiveWorld, type LiveWorld } from './live-kit.js';

/**
 * The secure score of a Microsoft 365 tenant is Microsoft's (issue #30: "secure score and history come from
 * Graph"): the sync reads `GET /security/secureScores?$top=N` (every kept day the first time, then the days
 * since), and the score answers say which scale they are on. The sandbox's computed score is
 * test/security-posture/secure-score.test.ts's.
 */
type ScoreBody = ItemOf<'listSecureScores'>;

let world: LiveWorld<SharedApp>;
let tenantId: string;
let firstSyncCalls: string[];

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Graph's entry of one day, on Microsoft's points scale (decimals). */
function scoreDay(date: string, currentScore: number, maxScore: number): SecureScore {
  return {
    id: `tenant_${date}`,
    createdDateTime: `${date}T03:10:00Z`,
    currentScore,
    maxScore,
    averageComparativeScores: [
      { basis: 'AllTenants', averageScore: 38.5 },
      { basis: 'TotalSeats', averageScore: 41.02 },
    ],
    controlScores: [
      { controlCategory: 'Identity', controlName: 'AdminMFAV2', score: 10 },
      { controlCategory: 'Identity', controlName: 'BlockLegacyAuthentication', score: 0 },
      { controlCategory: 'Apps', controlName: 'mdo_safelinksforemail', score: 3.5 },
      { controlCategory: 'Device', controlName: 'scid_2000', score: 28 },
    ],
  };
}

const scores = (query: string) =>
  world.app.request<Envelope<ScoreBody[]>>('GET', `/api/security-vendor/secure-score${query}`, {
    key: world.key,
  });

let today: string;

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  const now = world.app.clock.now().getTime();
  today = dayOf(now);
  const security = fakeSecurity(world.scenario.consented);
  const profile = (id: string, controlCategory: string, maxScore: number) => ({
    id,
    controlCategory,
    maxScore,
    deprecated: false,
    title: id,
  });
  security.controlProfiles = [
    profile('AdminMFAV2', 'Identity', 10),
    profile('BlockLegacyAuthentication', 'Identity', 8),
    profile('mdo_safelinksforemail', 'Apps', 9),
    profile('scid_2000', 'Device', 53),
  ];
  security.secureScores = [
    scoreDay(today, 41.5, 80),
    scoreDay(dayOf(now - DAY_MS), 40, 80),
    scoreDay(dayOf(now - 2 * DAY_MS), 38.25, 78),
  ];
  ({ tenantId } = await onboardAndSyncLive(world));
  firstSyncCalls = graphCalls(world);
});
beforeEach(() => world.scenario.fake.clearRequests());

describe('secure score in the live environment (Microsoft Secure Score)', () => {
  it("answers Microsoft's score and daily history, saying it is on Microsoft's scale", async () => {
    expect(firstSyncCalls.filter((call) => call.includes('/security/secureScores')).sort()).toEqual([
      'GET /v1.0/security/secureScores?$top=1', // the controls (recommendations step)
      'GET /v1.0/security/secureScores?$top=90', // the score: every day Graph keeps, the first time
    ]);
    const res = await scores(`?tenantIds=${tenantId}`);
    expect(res.status).toBe(200);
    const now = world.app.clock.now().getTime();
    expect(res.body.data).toEqual([
      {
        tenantId,
        tenantName: expect.any(String),
        source: 'microsoft365',
        // Whole points on the wire; the percentage from Microsoft's exact ones (41.5 / 80).
        score: 42,
        maxScore: 80,
        percentage: 51.9,
        byCategory: {
          identityAndAccess: { score: 10, maxScore: 18 },
          dataProtection: { score: 0, maxScore: 0 },
          emailSecurity: { score: 4, maxScore: 9 },
          deviceSecurity: { score: 28, maxScore: 53 },
          threatProtection: { score: 0, maxScore: 0 },
          auditAndCompliance: { score: 0, maxScore: 0 },
        },
        history: [
          { day: dayOf(now - 2 * DAY_MS), score: 38, maxScore: 78, percentage: 49 },
          { day: dayOf(now - DAY_MS), score: 40, maxScore: 80, percentage: 50 },
          { day: today, score: 42, maxScore: 80, percentage: 51.9 },
        ],
        averageComparativeScores: [
          { basis: 'AllTenants', averageScore: 38.5 },
          { basis: 'TotalSeats', averageScore: 41.02 },
        ],
      },
    ]);
    // The GraphQL twin: the same service, the same source.
    const gql = await world.app.graphql<{
      secureScores: { items: Array<{ source: string; score: number; history: Array<{ day: string }> }> };
    }>(
      world.key,
      'query ($t: [UUID!]) { secureScores(tenantIds: $t, historyDays: 2) { items { source score history { day } } } }',
      { t: [tenantId] },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data?.secureScores.items).toEqual([
      { source: 'MICROSOFT365', score: 42, history: [{ day: dayOf(now - DAY_MS) }, { day: today }] },
    ]);
    // Reading scores asks Graph nothing.
    expect(graphCalls(world)).toEqual([]);
  });

  it("tenant health is judged by Microsoft's percentage, and a new Microsoft score marks the tenant for recount", async () => {
    const stored = async (): Promise<number | null> => {
      const { rows } = await world.app.pool.query<{ percent: number | null }>(
        'select secure_score_percent as percent from portal_tenant_aggregates where tenant_id = $1',
        [tenantId],
      );
      return rows[0]?.percent ?? null;
    };
    // The sync's last step (portal, after secure-score) counted Microsoft's 41.5 / 80, not the recommendations'.
    expect(await stored()).toBe(51.9);
    const marks = async () =>
      (
        await world.app.pool.query<{ n: number }>(
          'select count(*)::int as n from portal_dirty_tenants where tenant_id = $1',
          [tenantId],
        )
      ).rows[0].n;
    const setScore = (score: number) =>
      world.app.pool.query('update cloud_secure_scores set score = $1 where tenant_id = $2', [
        score,
        tenantId,
      ]);
    // The portal's one-minute job recounts the tenants marked (PortalAggregates.refreshDirty).
    const recountMarked = () => onServer(world.app, 'recountMarkedTenants');
    await setScore(60);
    expect(await marks()).toBeGreaterThan(0);
    await recountMarked();
    expect(await stored()).toBe(75);
    await setScore(41.5);
    await recountMarked();
    expect(await stored()).toBe(51.9);
  });

  it("the hourly job leaves a Microsoft 365 tenant's days alone (no computed day on its history)", async () => {
    const before = (await scores(`?tenantIds=${tenantId}`)).body.data[0];
    world.app.clock.advance(2 * 60 * 60 * 1000);
    await onServer(world.app, 'recordSecureScoreDays');
    const after = (await scores(`?tenantIds=${tenantId}`)).body.data[0];
    expect(after.history).toEqual(before.history);
    expect(after).toMatchObject({ source: 'microsoft365', score: 42 });
  });

  it('a later sync reads only the days since the newest it holds, that one included', async () => {
    world.app.clock.advance(DAY_MS);
    const tomorrow = dayOf(world.app.clock.now().getTime());
    const security = fakeSecurity(world.scenario.consented);
    security.secureScores.unshift(scoreDay(tomorrow, 44, 80));
    const sync = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(
      graphCalls(world)
        .filter((call) => call.includes('/security/secureScores'))
        .sort(),
    ).toEqual(['GET /v1.0/security/secureScores?$top=1', 'GET /v1.0/security/secureScores?$top=2']);
    const read = (await scores(`?tenantIds=${tenantId}`)).body.data[0];
    expect(read).toMatchObject({ source: 'microsoft365', score: 44, maxScore: 80, percentage: 55 });
    expect(read.history.map((day) => day.day)).toEqual([
      dayOf(world.app.clock.now().getTime() - 3 * DAY_MS),
      dayOf(world.app.clock.now().getTime() - 2 * DAY_MS),
      today,
      tomorrow,
    ]);
  });
});
