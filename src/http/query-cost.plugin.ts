import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../core/request-context.js';
import { RateLimitedError } from '../core/errors.js';
import { queryCost, queryLimitError, QUERY_LIMITS, ratePointsOf } from './query-limits.js';
import { setRateLimitHeaders, type RateLimiter, type RateLimitOutcome } from './rate-limit.js';
import { holdOf, type ResponseHold } from './rate-limit-overlap.js';

/** Costs remembered per document and variables; a document sent with ever-new variables keeps the last few. */
const COSTS_PER_DOCUMENT = 64;
const costsByDocument = new WeakMap<DocumentNode, Map<string, number>>();

/**
 * `queryCost` of an operation, computed once per document and variables: Apollo hands every request of the
 * same text the same parsed document (its document cache), and the cost is a function of the document, the
 * variables and the operation name only. Walking the document with type information on every request was
 * ~5% of a GraphQL list's CPU (issue #11); a repeated query (a dashboard polling, a client paging with the
 * same limit) now pays a JSON.stringify of its variables instead.
 */
function cachedQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
): number {
  let costs = costsByDocument.get(document);
  if (!costs) {
    costs = new Map();
    costsByDocument.set(document, costs);
  }
  const key = `${operationName ?? ''}\u0000${JSON.stringify(variables ?? {})}`;
  let cost = costs.get(key);
  if (cost === undefined) {
    cost = queryCost(schema, document, variables, operationName);
    if (costs.size >= COSTS_PER_DOCUMENT) costs.delete(costs.keys().next().value!);
    costs.set(key, cost);
  }
  return cost;
}

/** The charge of a request's cost, by its hold: /graphql's fast path and Apollo after it charge a request once. */
const charges = new WeakMap<ResponseHold, Promise<RateLimitOutcome>>();

/**
 * Charges `extraPoints` for the request of `context`, once per request: when /graphql's fast path
 * (src/http/graphql-fast-path.ts) leaves a request it has resolved to Apollo, Apollo's run of this plugin finds
 * the charge the fast path made. A request without a hold (one that waited for its count) is Apollo's alone.
 */
function chargeOnce(
  rateLimiter: RateLimiter,
  context: RequestContext,
  hold: ResponseHold | undefined,
  extraPoints: number,
): Promise<RateLimitOutcome> {
  const made = hold && charges.get(hold);
  if (made) return made;
  const charge = rateLimiter.consume(context.viewer, '', extraPoints);
  if (hold) {
    charges.set(hold, charge);
    hold.add(charge);
  }
  return charge;
}

/**
 * Bounds and charges a GraphQL operation by its field cost once Apollo has resolved it (variables known):
 * over `maxCost` it is refused (400 naming the limit) before anything executes; otherwise the rate limiter,
 * which already counted the request as one point, is charged the rest of `ratePointsOf(cost)`: beside a query's
 * execution (its held answer waits for both counts), before a mutation's.
 */
export function queryCostPlugin(rateLimiter: RateLimiter): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let charged: RateLimitOutcome | undefined;
      return {
        async didResolveOperation({ schema, document, request, operationName, contextValue, operation }) {
          const cost = cachedQueryCost(schema, document, request.variables, operationName ?? undefined);
          if (cost > QUERY_LIMITS.maxCost) {
            const error = queryLimitError(
              'cost',
              QUERY_LIMITS.maxCost,
              Number.isFinite(cost) ? cost : undefined,
            );
            throw new GraphQLError(error.message, {
              extensions: { ...error.extensions, code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
            });
          }
          // A query runs beside its count and its answer waits for it (src/http/rate-limit-overlap.ts);
          // anything else may write, so it waits for the count before executing.
          const hold = holdOf(contextValue);
          const reads = operation?.operation === 'query';
          const extraPoints = ratePointsOf(cost) - 1;
          const charge =
            extraPoints > 0 ? chargeOnce(rateLimiter, contextValue, hold, extraPoints) : undefined;
          if (hold && reads) return;
          const decided = hold ? await hold.decided() : undefined;
          charged = charge ? await charge : undefined;
          const refused = decided && !decided.allowed ? decided : charged?.allowed === false ? charged : null;
          if (refused) {
            const refusal = new RateLimitedError(refused.retryAfterSeconds);
            const headers = new Map([['retry-after', String(refused.retryAfterSeconds)]]);
            setRateLimitHeaders(refused, (name, value) => headers.set(name.toLowerCase(), value));
            throw new GraphQLError(refusal.message, {
              originalError: refusal,
              extensions: { ...refusal.extensions, http: { status: 429, headers } },
            });
          }
        },
        async willSendResponse({ response }) {
          if (charged) setRateLimitHeaders(charged, (name, value) => response.http.headers.set(name, value));
        },
      };
    },
  };
}
