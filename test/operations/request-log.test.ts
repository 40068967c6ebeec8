/**
 * Issue #33 item 8: one log line per request at info — method, route pattern, status, duration, request id,
 * organization — never a key, a query string or a body; a level above info (LOG_LEVEL=warn) quiets it.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { RequestLogFields } from '../../src/http/request-log.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

interface Line {
  level: number;
  msg: string;
  http?: RequestLogFields;
}

function capture(level: string): { logger: pino.Logger; lines: Line[]; raw: string[] } {
  const lines: Line[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(text);
        lines.push(JSON.parse(text) as Line);
      }
      done();
    },
  });
  return { logger: pino({ level }, stream), lines, raw };
}

let app: RealmApp;
let org: OrganizationWithKeys;
let tenantId: string;
const log = capture('info');

beforeAll(async () => {
  let tenant;
  ({ app, org, tenant } = await realmSuite({ logger: log.logger, tenant: true }));
  tenantId = tenant.id;
});
afterAll(() => app.stop());

const requestLines = () => log.lines.filter((line) => line.http);

describe('the request log', () => {
  it('logs a 200, a 401 and a 404 with the route pattern and the organization, nothing secret', async () => {
    log.lines.length = 0;
    log.raw.length = 0;
    const ok = await app.request('GET', `/v1/tenants/${tenantId}`, {
      key: org.keys.read,
    });
    const unauthorized = await app.request('GET', '/v1/tenants?limit=7', {
      key: 'svc_sk_test_not-a-real-key',
    });
    const missing = await app.request('GET', '/v1/no-such-thing', { key: org.keys.read });
    const graphql = await app.request('POST', '/graphql', {
      key: org.keys.read,
      body: { query: 'query Few { tenants(limit: 1) { items { id } } }', operationName: 'Few' },
    });
    await app.request('GET', '/health/live');
    expect([ok.status, unauthorized.status, missing.status, graphql.status]).toEqual([200, 401, 404, 200]);

    const lines = requestLines();
    expect(lines.map((line) => [line.http!.method, line.http!.route, line.http!.status])).toEqual([
      ['GET', '/v1/tenants/:id', 200],
      ['GET', 'unmatched', 401],
      ['GET', 'unmatched', 404],
      ['POST', '/graphql', 200],
    ]);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(line.http!.durationMs).toBeGreaterThanOrEqual(0);
      expect(line.http!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(lines[0].http).toMatchObject({
      organization: org.organization.slug,
      organizationId: org.scope.organizationId,
    });
    expect(lines[1].http!.organization).toBeUndefined();
    expect(lines[3].http!.operation).toBe('Few');
    expect(lines[0].msg).toBe(
      `GET /v1/tenants/:id 200 ${lines[0].http!.durationMs} ms ${org.organization.slug} ${lines[0].http!.requestId}`,
    );
    const everything = log.raw.join('\n');
    for (const secret of [org.keys.read, 'not-a-real-key', 'limit=7', tenantId, 'tenants(limit'])
      expect(everything).not.toContain(secret);
  });

  it('is quiet above info', async () => {
    const quiet = capture('warn');
    const other = await realmSuite({ logger: quiet.logger });
    try {
      await other.app.request('GET', '/v1/tenants', { key: other.org.keys.read });
      await other.app.request('GET', '/v1/tenants');
      expect(quiet.lines.filter((line) => line.http)).toEqual([]);
    } finally {
      await other.app.stop();
    }
  });
});
