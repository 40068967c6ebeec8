import { PermissionLevel } from '../../src/core/permissions.js';
import { eventually } from '../helpers/eventually.js';
import { createApiKey, type OrganizationWithKeys } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { bearer, connect, emitTestEvent, EVENT_FIELDS, waitUntilLive } from './subscription-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

/** The server's LISTEN connection, as PostgreSQL sees it. */
async function listenerPids(): Promise<number[]> {
  const { rows } = await app.pool.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
  );
  return rows.map((row) => row.pid);
}

/** Until the LISTEN connection `pid` is gone from the server (terminated by the test). */
const listenerEnded = (pid: number) =>
  eventually(async () => expect(await listenerPids()).not.toContain(pid), {
    what: 'the LISTEN connection to end',
  });

it('delivers what was committed while the LISTEN connection was down, once, after it reconnects', async () => {
  const connection = connect(app.baseUrl, bearer(org.keys.read));
  try {
    const events = connection.subscribe('events', `subscription { events { ${EVENT_FIELDS} } }`);
    await waitUntilLive([events], (probe) =>
      emitTestEvent(app, org.scope, { kind: 'user.created', details: { probe } }),
    );

    const [pid] = await listenerPids();
    expect(pid).toBeDefined();
    await app.pool.query('select pg_terminate_backend($1)', [pid]);
    await listenerEnded(pid);

    // Nobody listens now: PostgreSQL drops this NOTIFY, only the outbox row remains.
    const missed = await emitTestEvent(app, org.scope, {
      kind: 'user.updated',
      details: { during: 'outage' },
    });

    const caughtUp = await events.nextEvent(10_000);
    expect(caughtUp).toMatchObject({ id: missed, event: 'user.updated', details: { during: 'outage' } });
    // The probes published before the outage are in the catch-up's window too; none comes again.
    expect(await events.nextMessage(500)).toBeNull();

    // Live again: the next event arrives through NOTIFY as usual.
    const after = await emitTestEvent(app, org.scope, { kind: 'user.deleted' });
    expect(await events.nextEvent()).toMatchObject({ id: after, event: 'user.deleted' });
  } finally {
    await connection.close();
  }
});

it('closes the sockets of a key revoked while the LISTEN connection was down, once it reconnects', async () => {
  const key = await createApiKey(app, org.scope, PermissionLevel.READ);
  const connection = connect(app.baseUrl, bearer(key.secret));
  try {
    expect(await connection.acknowledged()).toBeDefined();
    const [pid] = await listenerPids();
    await app.pool.query('select pg_terminate_backend($1)', [pid]);
    await listenerEnded(pid);
    // Revoked behind the server's back: no NOTIFY can reach it (and none is sent by a bare UPDATE).
    await app.pool.query('update api_keys set revoked_at = now() where id = $1', [key.id]);
    // Well before the 60 s periodic re-check: the reconnection itself triggers it.
    expect(await connection.closed()).toEqual({
      code: 4403,
      reason: 'Forbidden: credential no longer valid',
    });
  } finally {
    await connection.close();
  }
});
