import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ExecutionArgs, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type pg from 'pg';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { createRequestContext } from '../context.js';
import { InternalError, InvalidRequestError } from '../core/errors.js';
import type { PgListener } from '../core/pg-listener.js';
import type { AppDeps } from '../core/service-context.js';
import type { Authenticator } from '../http/authenticate.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { isDatabaseUnavailable } from '../core/database-outage.js';
import { CLOSE_FORBIDDEN, ConnectionGuard, type ConnectionParams } from './connection-guard.js';
import { EventBridge } from './event-bridge.js';
import { EventHub } from './event-hub.js';
import { executeInSession, subscribeInSession } from './session-execution.js';
import type { SubscriptionContext } from './event-subscription.resolver.js';
import { checkDocument, formatOperationError, graphQLErrorOf } from './operation-errors.js';

export const GRAPHQL_WS_PATH = '/graphql';
/** graphql-ws's code for a server-side failure. */
const CLOSE_INTERNAL_ERROR = 4500;
/** RFC 6455 "Try Again Later": the database is unreachable; the client should reconnect with backoff. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
/** A connection is one client; it has no reason to run more operations than this at once. */
export const MAX_OPERATIONS_PER_CONNECTION = 100;

export interface SubscriptionServerOptions {
  server: http.Server;
  schema: GraphQLSchema;
  orm: MikroORM;
  deps: AppDeps;
  /** The same list the HTTP routes use, so both surfaces accept exactly the same credentials. */
  authenticators: readonly Authenticator[];
  rateLimiter: RateLimiter;
  listener: PgListener;
  pool: pg.Pool;
  logger: Logger;
  maxMessageBytes: number;
  /** The client's address as the HTTP routes see it (TRUST_PROXY applies to the upgrade request too). */
  clientAddressOf: (request: IncomingMessage) => string;
}

export interface SubscriptionServer {
  /** Closes every socket (1001 Going away) and stops listening for events. */
  stop(): Promise<void>;
}

/**
 * GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's `/graphql`, with the same schema,
 * credentials, permissions, rate limit and error codes as HTTP. Events reach subscribers through this
 * server's EventHub, fed by the EventBridge with the commits of every process.
 */
export async function attachSubscriptionServer(
  options: SubscriptionServerOptions,
): Promise<SubscriptionServer> {
  const { schema, logger } = options;
  const logInternal = (error: unknown) => logger.error({ err: error }, 'graphql-ws operation failed');
  const eventHub = new EventHub();
  const bridge = new EventBridge(options.pool, eventHub, options.deps.clock, (error) =>
    logger.error({ err: error }, 'loading domain events for subscribers failed'),
  );
  await bridge.start(options.listener);
  const guard = new ConnectionGuard(options.authenticators, options.rateLimiter);
  const wss = new WebSocketServer({
    server: options.server,
    path: GRAPHQL_WS_PATH,
    maxPayload: options.maxMessageBytes,
  });
  await guard.watch(wss, options.listener);

  const disposable = useServer<ConnectionParams>(
    {
      schema,
      // Never put internal error messages in close reasons, whatever NODE_ENV says.
      isProd: true,
      execute: executeInSession,
      subscribe: subscribeInSession,

      async onConnect(ctx) {
        const socket = ctx.extra.socket;
        try {
          const ip = options.clientAddressOf(ctx.extra.request);
          const admission = await guard.admit(socket, ip, ctx.connectionParams);
          if (admission.admitted) return admission.ack;
          if (admission.close) guard.close(socket, admission.close.code, admission.close.reason);
          return false; // graphql-ws closes with 4403 Forbidden (unless closed above)
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            guard.close(socket, CLOSE_TRY_AGAIN_LATER, 'Service unavailable: try again later');
            return false;
          }
          logInternal(error);
          guard.close(socket, CLOSE_INTERNAL_ERROR, 'Internal server error');
          return false;
        }
      },

      async onSubscribe(ctx, _id, payload) {
        try {
          const socket = ctx.extra.socket;
          const authorized = await guard.authorizeOperation(socket);
          if ('error' in authorized) {
            if (authorized.close) guard.close(socket, CLOSE_FORBIDDEN, 'Forbidden');
            return [graphQLErrorOf(authorized.error)];
          }
          // ctx.subscriptions already holds this operation
          if (Object.keys(ctx.subscriptions).length > MAX_OPERATIONS_PER_CONNECTION)
            return [
              graphQLErrorOf(
                new InvalidRequestError(
                  `At most ${MAX_OPERATIONS_PER_CONNECTION} operations may run per connection`,
                ),
              ),
            ];
          const checked = checkDocument(schema, payload.query);
          if ('errors' in checked) return checked.errors;
          const contextValue: SubscriptionContext = Object.assign(
            createRequestContext(options.orm, options.deps, authorized.viewer, randomUUID()),
            { eventHub },
          );
          const args: ExecutionArgs = {
            schema,
            document: checked.document,
            operationName: payload.operationName,
            variableValues: payload.variables,
            contextValue,
          };
          return args;
        } catch (error) {
          logInternal(error);
          return [graphQLErrorOf(new InternalError())];
        }
      },

      onNext(_ctx, _id, _payload, _args, result) {
        if (!result.errors) return;
        return { ...result, errors: result.errors.map((error) => formatOperationError(error, logInternal)) };
      },

      onError(_ctx, _id, _payload, errors) {
        return errors.map((error) => formatOperationError(error, logInternal));
      },
    },
    wss,
  );

  return {
    stop: async () => {
      guard.stop();
      await bridge.stop();
      await disposable.dispose();
      eventHub.close();
    },
  };
}
