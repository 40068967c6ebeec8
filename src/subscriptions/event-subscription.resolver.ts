import 'reflect-metadata';
import { Arg, Args, Resolver, Root, Subscription, type ValidatorFn } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { InvalidRequestError } from '../core/errors.js';
import type { EventPayload } from '../core/events/event-filter.js';
import type { EventHub } from './event-hub.js';
import type { EventKind } from '../core/events/event-kinds.js';
import { readPermissionOfKind, SUBSCRIBABLE_EVENT_KINDS, subscriptionFieldName } from './event-kinds.js';
import { EventFilterInput, EventKindSubscriptionArgs, EventPayloadType } from './event-payload.types.js';
import { acceptorOfFilter, acceptorOfKind, assertOwnTenants, type EventAcceptor } from './event-selection.js';

/** The context of an operation that came in over graphql-ws: a request context plus this server's event hub. */
export interface SubscriptionContext extends RequestContext {
  eventHub: EventHub;
}

function notOverWebSocket(): InvalidRequestError {
  return new InvalidRequestError(
    'Subscriptions are served over WebSocket (graphql-ws protocol) on /graphql',
    [{ field: 'operation', problem: 'subscriptions need a graphql-ws connection' }],
  );
}

function subscriptionContext(context: unknown): SubscriptionContext {
  if (context && typeof context === 'object' && 'eventHub' in context) return context as SubscriptionContext;
  throw notOverWebSocket();
}

/** Each event is its own result. Without one, the operation was executed as a query (POST /graphql). */
function deliver(event: EventPayload | undefined): EventPayload {
  if (!event) throw notOverWebSocket();
  return event;
}

/** The permission and the filter's shape are checked first (acceptorFor), then its tenants exist here. */
async function streamOf(
  context: unknown,
  acceptorFor: (ctx: SubscriptionContext) => EventAcceptor,
  tenants: { field: string; ids: readonly string[] | null | undefined },
) {
  const ctx = subscriptionContext(context);
  const acceptor = acceptorFor(ctx);
  await assertOwnTenants(ctx.em, ctx.scope, tenants.field, tenants.ids);
  return ctx.eventHub.subscribe(ctx.scope, acceptor);
}

/**
 * The arguments are checked once, when the subscription starts (in `subscribe`); type-graphql would
 * otherwise validate them again for every event delivered.
 */
const checkedAtSubscribe: ValidatorFn = () => undefined;

@Resolver()
export class EventSubscriptionResolver {
  @Subscription(() => EventPayloadType, {
    description:
      'Every event of your organization and environment that the filter selects (the same rule as webhooks). ' +
      'Each event also needs the read permission of its subject (read:users, read:licenses, read:tenants).',
    subscribe: ({ args, context }) =>
      streamOf(context, (ctx) => acceptorOfFilter(ctx.viewer, args.filter as EventFilterInput | null), {
        field: 'filter.tenantIds',
        ids: (args.filter as EventFilterInput | null)?.tenantIds,
      }),
  })
  events(
    @Root() event: EventPayload | undefined,
    @Arg('filter', () => EventFilterInput, { nullable: true, validateFn: checkedAtSubscribe })
    _filter?: EventFilterInput | null,
  ): EventPayload {
    return deliver(event);
  }
}

/**
 * One field per event kind of the catalog (`userCreated`, `securityRiskySignin`, ...), declared here in a
 * loop so that the schema follows EVENT_KINDS. This is what the decorators would do on hand-written methods.
 */
function declareKindSubscription(prototype: object, kind: EventKind): void {
  const name = subscriptionFieldName(kind);
  const descriptor: PropertyDescriptor = {
    value: deliver,
    writable: true,
    configurable: true,
  };
  Object.defineProperty(prototype, name, descriptor);
  // The metadata `emitDecoratorMetadata` writes for a method declared in source.
  Reflect.defineMetadata('design:paramtypes', [Object, EventKindSubscriptionArgs], prototype, name);
  Reflect.defineMetadata('design:returntype', Object, prototype, name);
  Root()(prototype, name, 0);
  Args(() => EventKindSubscriptionArgs, { validateFn: checkedAtSubscribe })(prototype, name, 1);
  Subscription(() => EventPayloadType, {
    description: `\`${kind}\` events of your organization and environment (needs ${readPermissionOfKind(kind)})`,
    subscribe: ({ args, context }) =>
      streamOf(context, (ctx) => acceptorOfKind(ctx.viewer, kind, args as EventKindSubscriptionArgs), {
        field: 'tenantIds',
        ids: (args as EventKindSubscriptionArgs | null)?.tenantIds,
      }),
  })(prototype, name, descriptor);
}

for (const kind of SUBSCRIBABLE_EVENT_KINDS)
  declareKindSubscription(EventSubscriptionResolver.prototype, kind);
