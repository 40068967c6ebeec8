import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxSubscriber } from '../../src/core/events/event-fanout.js';
import { recordEvent, type NewEvent } from '../../src/core/events/record-event.js';
import type { Scope } from '../../src/core/scope.js';
import { OUTBOX_SUBSCRIBERS } from '../../src/features.js';
import { webhookFanOut } from '../../src/webhooks/webhook-fanout.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';

let app: TestApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await startSuite()));
afterAll(() => app.stop());

const EVENT: NewEvent = {
  kind: 'user.updated',
  severity: 'informational',
  tenant: null,
  details: {},
  actionPath: '/tenants',
};

const transactionId = async (em: EntityManager) =>
  (await em.execute<Array<{ id: string }>>('select txid_current()::text as id'))[0].id;

interface Seen {
  read: unknown;
  transactionId: string;
  eventId: string;
}

/** A subscriber that reports what it was given and the transaction it ran in. */
function probe(seen: Seen[]): OutboxSubscriber<string> {
  return {
    name: 'probe',
    read: (scope: Scope) => ({ sql: 'select ?::text', params: [`read for ${scope.environment}`] }),
    async onEvent(em, _scope, event, _clock, read) {
      seen.push({ read, transactionId: await transactionId(em), eventId: event.id });
      return 1;
    },
  };
}

/** Core's fan-out (src/core/events/event-fanout.ts) runs the subscribers the process passes in, and only those. */
describe('outbox subscribers', () => {
  it('are the features’ own: the webhooks’ fan-out, passed to every context in AppDeps', () => {
    expect(OUTBOX_SUBSCRIBERS).toEqual([webhookFanOut]);
    expect(app.deps.outboxSubscribers).toBe(OUTBOX_SUBSCRIBERS);
  });

  it('run inside the transaction that records the event, with what they read in the NOTIFY statement', async () => {
    const seen: Seen[] = [];
    const deps = { ...app.deps, outboxSubscribers: [probe(seen)] };
    let outer = '';
    const event = await app.orm.em.fork().transactional(async (tx) => {
      outer = await transactionId(tx);
      return recordEvent(tx, org.scope, deps, EVENT);
    });
    expect(seen).toEqual([
      { read: `read for ${org.scope.environment}`, transactionId: outer, eventId: event.id },
    ]);
  });

  it('cost no statement of their own to read: one statement announces the event and serves every read', async () => {
    const record = (outboxSubscribers: readonly OutboxSubscriber[]) =>
      app.sql.during(() =>
        app.orm.em
          .fork()
          .transactional((tx) => recordEvent(tx, org.scope, { ...app.deps, outboxSubscribers }, EVENT)),
      );
    const quiet: OutboxSubscriber<string> = { ...probe([]), onEvent: async () => 0 };
    const withoutSubscribers = await record([]);
    expect(await record([quiet, quiet])).toBe(withoutSubscribers);
  });

  it('never see an event addressed to one webhook', async () => {
    const seen: Seen[] = [];
    await app.orm.em
      .fork()
      .transactional((tx) =>
        recordEvent(
          tx,
          org.scope,
          { ...app.deps, outboxSubscribers: [probe(seen)] },
          { ...EVENT, kind: 'webhook.test' },
        ),
      );
    expect(seen).toEqual([]);
  });
});
