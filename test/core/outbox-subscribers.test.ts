import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxSubscriber } from '../../src/core/events/event-fanout.js';
import type { NewEvent } from '../../src/core/events/record-event.js';
import type { Scope } from '../../src/core/scope.js';
import type { OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
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

/**
 * Records the event through the server's ORM (onServer `recordEventWith`: recordEvent in a transaction of its own,
 * with `subscribers` as the app's outbox subscribers): the event's id and its transaction's.
 */
const record = (subscribers: readonly OutboxSubscriber[], event: NewEvent = EVENT) =>
  onServer(app, 'recordEventWith', org.scope, event, { outboxSubscribers: subscribers });

/** Core's fan-out (src/core/events/event-fanout.ts) runs the subscribers the process passes in, and only those. */
describe('outbox subscribers', () => {
  it('are the features’ own: the webhooks’ fan-out, passed to every context in AppDeps', async () => {
    // The server's own (src/features.ts's OUTBOX_SUBSCRIBERS, webhooks/webhook-fanout.ts, its AppDeps).
    const { subscribers, webhookFanOut, inDeps } = await onServer(app, 'outboxSubscribers');
    expect(subscribers).toEqual([webhookFanOut]);
    expect(inDeps).toBe(subscribers);
  });

  it('run inside the transaction that records the event, with what they read in the NOTIFY statement', async () => {
    const seen: Seen[] = [];
    const event = await record([probe(seen)]);
    expect(seen).toEqual([
      {
        read: `read for ${org.scope.environment}`,
        transactionId: event.transactionId,
        eventId: event.event.id,
      },
    ]);
  });

  it('cost no statement of their own to read: one statement announces the event and serves every read', async () => {
    const statements = (subscribers: readonly OutboxSubscriber[]) =>
      app.sql.during(() => record(subscribers));
    const quiet: OutboxSubscriber<string> = { ...probe([]), onEvent: async () => 0 };
    const withoutSubscribers = await statements([]);
    expect(await statements([quiet, quiet])).toBe(withoutSubscribers);
  });

  it('never see an event addressed to one webhook', async () => {
    const seen: Seen[] = [];
    await record([probe(seen)], { ...EVENT, kind: 'webhook.test' });
    expect(seen).toEqual([]);
  });
});
