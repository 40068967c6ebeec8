/**
 * Every GraphQL error is normalised at the graphql-jit gateway (src/core/jit-gateway.ts) before Apollo's error
 * enrichment (issue #34 item 5, issue #32 items 8 and 9): a backend terminated mid-query answers 503
 * SERVICE_UNAVAILABLE with Retry-After like REST, an internal error is a masked INTERNAL_ERROR, and no answer
 * carries a stack trace unless GRAPHQL_STACK_TRACES asks, whatever NODE_ENV says.
 */
import pg from 'pg';
import { GraphQLError } from 'graphql';
import { normaliseError, NonErrorThrown } from '../../src/core/jit-gateway.js';
import { formatGraphQLError } from '../../src/http/graphql-errors.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

let app: RealmApp;
let org: OrganizationWithKeys;
beforeAll(async () => {
  // Apollo's default follows NODE_ENV: anything but "production" used to send stack traces (npm start sets none).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  try {
    app = await realmApp();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  org = await createOrganizationWithKeys(app);
});
afterAll(() => app?.stop());

/** No stack trace, no file path, no driver text anywhere in the answer. */
function expectNothingInternal(body: unknown): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/stacktrace|\/work\/|node_modules|\.ts:\d+|\.js:\d+|reading 'code'/);
}

describe('GraphQL errors are normalised at the gateway', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the backend is terminated mid-query', async () => {
    const admin = new pg.Client({ connectionString: app.databaseUrl });
    await admin.connect();
    try {
      expect((await app.graphql(org.keys.read, '{ tenants { items { id } } }')).status).toBe(200);
      // Hold the query at the table lock, then terminate its backend: "terminating connection due to
      // administrator command" (57P01) in the middle of the request, deterministically.
      await admin.query('begin');
      await admin.query('lock table tenants in access exclusive mode');
      const answer = app.graphql(org.keys.read, '{ tenants { items { id } } }');
      const pid = await eventually(
        async () => {
          // Inside the admin's transaction PostgreSQL reads the backends' activity once and keeps it for the
          // transaction: without clearing that snapshot, a first look taken before the request reached the lock
          // is all every later look sees (it timed out so under load).
          await admin.query('select pg_stat_clear_snapshot()');
          const { rows } = await admin.query<{ pid: number }>(
            `select pid from pg_stat_activity
              where wait_event_type = 'Lock' and pg_backend_pid() = any(pg_blocking_pids(pid))
                and query ilike '%tenants%'`,
          );
          expect(rows).toHaveLength(1);
          return rows[0].pid;
        },
        { what: 'the query to wait at the lock' },
      );
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.query('rollback');
      const response = await answer;
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(response.body.errors?.[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      expectNothingInternal(response.body);
    } finally {
      await admin.end();
    }
    // The same server answers the next request normally.
    expect((await app.graphql(org.keys.read, '{ tenants { items { id } } }')).status).toBe(200);
  });

  it('secureScores(tenantIds: []) is an empty page, not a crash in error enrichment (issue #32 item 9)', async () => {
    const response = await app.graphql<{ secureScores: { items: unknown[]; pageInfo: { total: number } } }>(
      org.keys.read,
      '{ secureScores(tenantIds: []) { items { tenantId } pageInfo { total } } }',
    );
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.secureScores).toEqual({ items: [], pageInfo: { total: 0 } });
  });

  it('a thrown non-Error value and a graphql-jit error without extensions become a masked INTERNAL_ERROR', () => {
    const logged: unknown[] = [];
    // What graphql-jit hands over: its own error object, extensions undefined, the thrown value as is.
    const jitLike = { message: undefined, path: ['secureScores'], locations: [{ line: 1, column: 3 }] };
    for (const thrown of ['a string', { code: 42 }, undefined, null]) {
      const normalised = normaliseError({ ...jitLike, originalError: thrown });
      expect(normalised).toBeInstanceOf(GraphQLError);
      expect(normalised.extensions).toEqual({});
      expect(normalised.path).toEqual(['secureScores']);
      expect(normalised.locations).toEqual([{ line: 1, column: 3 }]);
      const formatted = formatGraphQLError(normalised.toJSON(), normalised, (error) => logged.push(error));
      expect(formatted.extensions?.code).toBe('INTERNAL_ERROR');
      expectNothingInternal(formatted);
    }
    expect(normaliseError('bare string').originalError).toBeInstanceOf(NonErrorThrown);
    expect(logged).toHaveLength(4);
  });

  it('sends a stack trace only when GRAPHQL_STACK_TRACES asks', () => {
    const error = normaliseError({ message: 'boom', originalError: new TypeError('boom') });
    const quiet = formatGraphQLError(error.toJSON(), error, () => undefined);
    expect(quiet.extensions?.stacktrace).toBeUndefined();
    const asked = formatGraphQLError(error.toJSON(), error, () => undefined, { stackTraces: true });
    expect(asked.extensions?.stacktrace).toEqual(
      expect.arrayContaining([expect.stringContaining('TypeError')]),
    );
  });
});
