/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files that check the ORM layer itself: the
 * scope filter, lean views against entities, the portal counts' locks, the outbox subscribers, a migration's
 * backfill. Each runs with the server's ORM and entity classes what the file ran with its own TestApp's, and
 * hands back the values the file asserts on; the file keeps its assertions.
 */
import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from '../../src/core/events/domain-event.entity.js';
import { fanOutEvent } from '../../src/core/events/event-fanout.js';
import { recordEvent, type NewEvent } from '../../src/core/events/record-event.js';
import { findLeanIn } from '../../src/core/lean-read.js';
import { runInOrganizationSession } from '../../src/core/db-session.js';
import { SCOPE_FILTER, type Scope } from '../../src/core/scope.js';
import type { AppDeps } from '../../src/core/service-context.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { OUTBOX_SUBSCRIBERS } from '../../src/features.js';
import { lockPortalCounts } from '../../src/portal/portal-activity-lock.js';
import { SecureScoreSnapshot } from '../../src/secure-score/secure-score-snapshot.entity.js';
import { Tenant } from '../../src/tenants/tenant.entity.js';
import { webhookFanOut } from '../../src/webhooks/webhook-fanout.js';
import type { TestApp } from './test-app.js';

/**
 * The ids of the tenants a fork of the app's ORM reads with the scope filter's parameters `scope`; without a
 * scope, the filter has no parameters (the read is expected to fail).
 */
async function findTenantIds(app: TestApp, scope?: Scope): Promise<string[]> {
  const em = app.orm.em.fork();
  if (scope) em.setFilterParams(SCOPE_FILTER, scope);
  return (await em.find(Tenant, {})).map((tenant) => tenant.id);
}

/**
 * A secure score snapshot of `tenantId` written through the ORM, then read back twice: as a lean view
 * (findLeanIn, src/core/lean-read.ts) and as the entity (MikroORM's hydration).
 */
async function snapshotLeanAndEntity(
  app: TestApp,
  scope: Scope,
  tenantId: string,
  fields: { day: string; score: number; maxScore: number; recordedAt: Date },
): Promise<{ lean: SecureScoreSnapshot; entity: SecureScoreSnapshot }> {
  const em = app.orm.em.fork();
  em.create(SecureScoreSnapshot, { ...scope, tenantId, ...fields });
  await em.flush();
  const [lean] = await findLeanIn({ em: em.fork(), scope }, SecureScoreSnapshot, 'tenantId', [tenantId]);
  const [entity] = await em.fork().find(SecureScoreSnapshot, { tenantId }, { filters: false });
  return { lean, entity };
}

/** One tenant's portal counts lock, as a trigger takes it for the tenant its statement writes. */
const triggerLock = (em: EntityManager, tenantId: string) =>
  em.execute('select portal_activity_lock(array[?]::uuid[])', [tenantId]);

/**
 * A transaction writing `first` then `second` (each a statement taking that tenant's lock as the triggers do),
 * with `between` awaited in between; `upFront`: all its tenants' locks first (lockPortalCounts).
 */
async function portalCountsWriter(
  app: TestApp,
  first: string,
  second: string,
  upFront: boolean,
  between: PromiseLike<void>,
): Promise<void> {
  await app.orm.em.fork().transactional(async (em) => {
    if (upFront) await lockPortalCounts(em, [first, second]);
    await triggerLock(em, first);
    await between;
    await triggerLock(em, second);
  });
}

/** The process's outbox subscribers, the webhooks' fan-out, and what the app's contexts are given. */
async function outboxSubscribers(app: TestApp) {
  return { subscribers: OUTBOX_SUBSCRIBERS, webhookFanOut, inDeps: app.deps.outboxSubscribers };
}

/** What a test may set of the app's dependencies for one recordEvent: its outbox subscribers, its public URL. */
type EventDeps = Partial<Pick<AppDeps, 'outboxSubscribers' | 'publicUrl'>>;

/**
 * Records `event` in a transaction of its own (recordEvent, the one emission point), with `deps` in place of the
 * app's own: the event as recorded and the id of the transaction it was recorded in.
 */
async function recordEventWith(
  app: TestApp,
  scope: Scope,
  event: NewEvent,
  deps: EventDeps = {},
): Promise<{ event: DomainEvent; transactionId: string }> {
  return app.orm.em.fork().transactional(async (tx) => {
    const [{ id: transactionId }] = await tx.execute<Array<{ id: string }>>(
      'select txid_current()::text as id',
    );
    return { event: await recordEvent(tx, scope, { ...app.deps, ...deps }, event), transactionId };
  });
}

/** `events` recorded one after another in one transaction, as a burst of changes would. */
async function recordEventsTogether(app: TestApp, scope: Scope, events: NewEvent[]): Promise<void> {
  await app.orm.em.fork().transactional(async (tx) => {
    for (const event of events) await recordEvent(tx, scope, app.deps, event);
  });
}

/**
 * Records `event` in a transaction that then fails: what `probeSql` (a count) saw inside it after the event was
 * recorded, and the message the transaction failed with (after its rollback).
 */
async function recordEventThenFail(
  app: TestApp,
  scope: Scope,
  event: NewEvent,
  probeSql: string,
): Promise<{ countInside: number; failure: string }> {
  let countInside = -1;
  try {
    await app.orm.em.fork().transactional(async (tx) => {
      await recordEvent(tx, scope, app.deps, event);
      [{ count: countInside }] = await tx.execute<Array<{ count: number }>>(probeSql);
      throw new Error('the change fails after the event was recorded');
    });
  } catch (error) {
    return { countInside, failure: (error as Error).message };
  }
  throw new Error('The transaction was expected to fail');
}

/**
 * Records `event` in a transaction of its own, reads its row back through the ORM and compares every persisted
 * property of DomainEvent (from the ORM's metadata) between the row read and the event returned: the properties
 * compared, and those that differ with both values (recordEvent builds its INSERT from that same metadata).
 */
async function recordEventReadBack(
  app: TestApp,
  scope: Scope,
  event: NewEvent,
): Promise<{
  persisted: string[];
  differing: Array<{ property: string; read: unknown; recorded: unknown }>;
}> {
  const recorded = await app.orm.em.fork().transactional((tx) => recordEvent(tx, scope, app.deps, event));
  const read = await app.orm.em.fork().findOneOrFail(DomainEvent, { id: recorded.id }, { filters: false });
  const persisted = app.orm
    .getMetadata()
    .get(DomainEvent)
    .props.filter((prop) => prop.persist !== false && !prop.formula)
    .map((prop) => prop.name as keyof DomainEvent & string);
  const differing = persisted
    // structuredClone: values the test file passed in come from its realm (other prototypes), read ones from this.
    .filter((name) => !isDeepStrictEqual(structuredClone(read[name]), structuredClone(recorded[name])))
    .map((property) => ({ property, read: read[property], recorded: recorded[property] }));
  return { persisted, differing };
}

/** The fan-out of a recorded event run (again) in a transaction of its own (core/events/event-fanout.ts). */
async function fanOutAgain(app: TestApp, scope: Scope, eventId: string): Promise<Record<string, number>> {
  const em = app.orm.em.fork();
  const event = await em.findOneOrFail(DomainEvent, { id: eventId }, { filters: false });
  return em.transactional((tx) => fanOutEvent(tx, scope, event, app.deps));
}

/** The statements a landed migration's `up` queues (MIGRATIONS, by its name), as SQL text, none of them run. */
async function migrationQueries(app: TestApp, name: string): Promise<string[]> {
  const entry = MIGRATIONS.find((migration) => migration.name === name);
  if (!entry) throw new Error(`No migration ${name} in src/db/migrations/index.ts`);
  const Migration = entry.class as unknown as new (
    driver: unknown,
    config: unknown,
  ) => { up(): Promise<void> | void; getQueries(): unknown[] };
  const migration = new Migration(app.orm.em.getDriver(), app.orm.config);
  await migration.up();
  return migration.getQueries().map(String);
}

/**
 * Counts the forks of the server's root EntityManager (`orm.em.fork`) from now until `restore()`: what a request
 * forks (src/context.ts forks only when something uses `ctx.em`). The file calls the two functions returned.
 */
async function countOrmForks(app: TestApp): Promise<{ count: () => number; restore: () => void }> {
  const em = app.orm.em;
  const fork = em.fork;
  let count = 0;
  em.fork = function countedFork(this: typeof em, ...args: Parameters<typeof fork>) {
    count += 1;
    return fork.apply(this, args);
  } as typeof fork;
  return {
    count: () => count,
    restore: () => {
      em.fork = fork;
    },
  };
}

/**
 * Raw SQL on the request path's connections (a fork of the server's ORM), in `scope`'s organization session
 * (runInOrganizationSession: the application role and its settings) or, with `null`, in none: the rows it returns.
 */
function executeInSession(
  app: TestApp,
  scope: Scope | null,
  sql: string,
  params: unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  const em = app.orm.em.fork();
  const run = () => em.getConnection().execute<Array<Record<string, unknown>>>(sql, params);
  return scope ? runInOrganizationSession(scope, run) : run();
}

export const SERVER_SIDE_ORM = {
  countOrmForks,
  executeInSession,
  findTenantIds,
  snapshotLeanAndEntity,
  portalCountsWriter,
  outboxSubscribers,
  recordEventWith,
  recordEventsTogether,
  recordEventThenFail,
  recordEventReadBack,
  fanOutAgain,
  migrationQueries,
};
