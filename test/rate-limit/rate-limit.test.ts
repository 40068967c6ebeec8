import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Viewer } from '../../src/core/viewer.js';
import { RateLimiter } from '../../src/http/rate-limit.js';
import { Plan } from '../../src/organizations/organization.entity.js';
import { createOrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { ServerProcess } from '../helpers/server-process.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

let app: RealmApp;

beforeAll(async () => {
  app = await realmApp();
});
afterAll(() => app.stop());

async function get(baseUrl: string, path: string, key: string) {
  const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
}

describe('rate limits (SPEC 8.1, fixed 60 s window per organization and environment)', () => {
  it('lets exactly the Starter plan’s 60 requests through, then answers 429 with Retry-After', async () => {
    const org = await createOrganizationWithKeys(app, { plan: Plan.STARTER });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 60; i++) {
      last = await get(app.baseUrl, '/v1/tenants', org.keys.read);
      statuses.push(last.status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('60');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(last!.headers.get('x-ratelimit-reset'));
    const nowSeconds = Date.now() / 1000;
    expect(reset).toBeGreaterThan(nowSeconds);
    expect(reset).toBeLessThanOrEqual(nowSeconds + 61);

    const refused = await get(app.baseUrl, '/v1/tenants', org.keys.read);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // GraphQL shares the same counter.
    const graphql = await app.graphql(org.keys.read, '{ tenants { items { id } } }');
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors?.[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('counts the environments of one organization separately', async () => {
    const org = await createOrganizationWithKeys(app, { plan: Plan.STARTER });
    const sandbox = await get(app.baseUrl, '/v1/tenants', org.keys.read);
    const live = await get(app.baseUrl, '/v1/tenants', org.liveAdminKey);
    expect(sandbox.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(live.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('uses the plan’s number: Growth 300, Scale 1000, Custom contracted', async () => {
    for (const [plan, custom, expected] of [
      [Plan.GROWTH, null, '300'],
      [Plan.SCALE, null, '1000'],
      [Plan.CUSTOM, 5000, '5000'],
    ] as const) {
      const org = await createOrganizationWithKeys(app, { plan, customRateLimitPerMinute: custom });
      const res = await get(app.baseUrl, '/v1/tenants', org.keys.read);
      expect(res.headers.get('x-ratelimit-limit')).toBe(expected);
    }
  });

  describe('with a second server process on the same database', () => {
    // One process for both tests (each has an organization of its own): a start is some 2 s of CPU.
    let second: ServerProcess;
    beforeAll(async () => {
      second = await ServerProcess.start(app.databaseUrl);
    }, 60_000);
    afterAll(async () => {
      expect(await second?.stop()).toBe(0);
    });

    it('shares one count between two server processes on the same database', async () => {
      const org = await createOrganizationWithKeys(app, { plan: Plan.STARTER });
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        const baseUrl = i % 2 === 0 ? app.baseUrl : second.baseUrl;
        statuses.push((await get(baseUrl, '/v1/tenants', org.keys.read)).status);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect((await get(second.baseUrl, '/v1/tenants', org.keys.read)).status).toBe(429);
      expect((await get(app.baseUrl, '/v1/tenants', org.keys.read)).status).toBe(429);
    }, 60_000);

    it('Growth’s 300 of 400 concurrent reads across two processes: exactly 300 answered, 100 refused without data', async () => {
      // Reads run beside their count and their answer waits for it (src/http/rate-limit-overlap.ts): the refused
      // ones must still get the 429 alone, the limit must stay exact, and REST and GraphQL share the window.
      const org = await createOrganizationWithKeys(app, { plan: Plan.GROWTH });
      const read = async (i: number) => {
        const baseUrl = i % 2 === 0 ? app.baseUrl : second.baseUrl;
        const init =
          i % 4 < 2
            ? { headers: { authorization: `Bearer ${org.keys.read}` } }
            : {
                method: 'POST',
                headers: { authorization: `Bearer ${org.keys.read}`, 'content-type': 'application/json' },
                body: JSON.stringify({ query: '{ tenants { items { id } } }' }),
              };
        const response = await fetch(baseUrl + (init.method ? '/graphql' : '/v1/tenants'), init);
        const body = (await response.json()) as { data?: unknown; success?: boolean };
        return { status: response.status, hasData: body.data !== undefined && body.data !== null };
      };
      const outcomes: Array<{ status: number; hasData: boolean }> = [];
      for (let wave = 0; wave < 20; wave++)
        outcomes.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => read(wave * 20 + i)))));
      const answered = outcomes.filter((outcome) => outcome.status === 200);
      const refused = outcomes.filter((outcome) => outcome.status === 429);
      expect([answered.length, refused.length]).toEqual([300, 100]);
      expect(answered.every((outcome) => outcome.hasData)).toBe(true);
      expect(refused.some((outcome) => outcome.hasData)).toBe(false);
    }, 60_000);
  });

  it('counts a burst exactly, in fewer statements than requests, and shares it with other processes', async () => {
    // The pool the limiter writes through, counting its statements.
    let statements = 0;
    const countingPool = new Proxy(app.pool, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<pg.Pool['query']>) => {
          statements += 1;
          return (target.query as (...queryArgs: unknown[]) => unknown)(...args);
        };
      },
    });
    const limiter = new RateLimiter(countingPool);
    const viewer = { organizationId: randomUUID(), environment: 'sandbox', rateLimitPerMinute: 60 } as Viewer;

    const outcomes = await Promise.all(Array.from({ length: 70 }, () => limiter.consume(viewer, '')));

    const allowed = outcomes.filter((outcome) => outcome.allowed);
    expect(allowed).toHaveLength(60);
    // Each allowed request got its own place in the window, as if counted one by one.
    expect(allowed.map((outcome) => outcome.remaining).sort((a, b) => a - b)).toEqual([...Array(60).keys()]);
    expect(outcomes.filter((outcome) => !outcome.allowed).every((outcome) => outcome.remaining === 0)).toBe(
      true,
    );
    // The first request's UPSERT counted it alone; the 69 that arrived meanwhile shared the next one.
    expect(statements).toBe(2);
    // Another process (its own limiter) sees the whole burst counted.
    const elsewhere = await new RateLimiter(app.pool).consume(viewer, '');
    expect(elsewhere.allowed).toBe(false);
    // A charge of several points (a costly GraphQL query) is counted with its weight.
    const costly = { ...viewer, organizationId: randomUUID() };
    const [first, second] = await Promise.all([
      limiter.consume(costly, '', 50),
      limiter.consume(costly, '', 20),
    ]);
    expect([first.allowed, first.remaining, second.allowed, second.remaining]).toEqual([true, 10, false, 0]);
  });

  it('keeps its counters in an unlogged table (no WAL write or flush per request)', async () => {
    const { rows } = await app.pool.query<{ relpersistence: string }>(
      `select relpersistence from pg_class where oid = 'rate_limits'::regclass`,
    );
    expect(rows[0].relpersistence).toBe('u');
  });

  it('counts requests without valid credentials per IP at the Starter limit', async () => {
    const res = await get(app.baseUrl, '/v1/tenants', 'svc_sk_test_invalid');
    expect(res.status).toBe(401);
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(60);
  });
});
