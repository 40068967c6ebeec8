import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { RequestContext } from '../context.js';
import { RateLimitedError } from '../core/errors.js';
import { queryCost, queryLimitError, QUERY_LIMITS, ratePointsOf } from './query-limits.js';
import { setRateLimitHeaders, type RateLimiter, type RateLimitOutcome } from './rate-limit.js';

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
          const cost = queryCost(schema, document, request.variables, operationName ?? undefined);
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
