import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../core/request-context.js';
import { RateLimitedError } from '../core/errors.js';
import { queryCost, queryLimitError, QUERY_LIMITS, ratePointsOf } from './query-limits.js';
import { setRateLimitHeaders, type RateLimiter, type RateLimitOutcome } from './rate-limit.js';

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

/**
 * Bounds and charges a GraphQL operation by its field cost once Apollo has resolved it (variables known):
 * over `maxCost` it is refused (400 naming the limit) before anything executes; otherwise the rate limiter,
 * which already counted the request as one point, is charged the rest of `ratePointsOf(cost)`.
 */
export function queryCostPlugin(rateLimiter: RateLimiter): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let charged: RateLimitOutcome | undefined;
      return {
        async didResolveOperation({ schema, document, request, operationName, contextValue }) {
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
          const extraPoints = ratePointsOf(cost) - 1;
          if (extraPoints === 0) return;
          charged = await rateLimiter.consume(contextValue.viewer, '', extraPoints);
          if (!charged.allowed) {
            const refusal = new RateLimitedError(charged.retryAfterSeconds);
            const headers = new Map([['retry-after', String(charged.retryAfterSeconds)]]);
            setRateLimitHeaders(charged, (name, value) => headers.set(name.toLowerCase(), value));
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
