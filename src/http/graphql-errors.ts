import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { CloudError } from '../cloud/cloud-error.js';
import { AppError, appErrorOfCloud, shortened, toAppError, type ErrorCode } from '../core/errors.js';

/** Apollo's own codes for a document or variables that do not fit the schema: all the client's mistake. */
const CLIENT_MISTAKES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/**
 * The error a resolver or plugin threw, unwrapped: an AppError thrown by a plugin (e.g. the query-cost charge)
 * arrives wrapped in a GraphQLError without a path.
 */
function thrownBy(error: unknown): unknown {
  const unwrapped = unwrapResolverError(error);
  return unwrapped instanceof GraphQLError && unwrapped.originalError instanceof AppError
    ? unwrapped.originalError
    : unwrapped;
}

/** One of ours: an AppError, or a cloud failure the service answers as one (core/errors.ts appErrorOfCloud). */
function oursOf(thrown: unknown): AppError | null {
  if (thrown instanceof AppError) return thrown;
  const cloudError = thrown instanceof GraphQLError ? thrown.originalError : thrown;
  return cloudError instanceof CloudError ? appErrorOfCloud(cloudError) : null;
}

/** A document or variables that do not fit the schema (Apollo's code): INVALID_REQUEST, with its reason. */
function clientMistakeOf(formatted: GraphQLFormattedError): GraphQLFormattedError | null {
  const apolloCode = formatted.extensions?.code;
  if (typeof apolloCode !== 'string' || !CLIENT_MISTAKES.has(apolloCode)) return null;
  const code: ErrorCode = 'INVALID_REQUEST';
  // Details a validation rule attached (e.g. which query limit) are kept; Apollo's `http` is not echoed.
  const given = formatted.extensions?.details;
  const details = typeof given === 'object' && given !== null ? given : {};
  // graphql-js quotes the offending value in full; a megabyte string must not come back in the answer.
  const message = shortened(formatted.message, 1000);
  return { ...formatted, message, extensions: { code, details: { ...details, reason: apolloCode } } };
}

/** Anything else: a bland INTERNAL_ERROR (a stack trace only when a developer asked for it). */
function internalOf(
  formatted: GraphQLFormattedError,
  thrown: unknown,
  stackTraces: boolean,
): GraphQLFormattedError {
  const internal = toAppError(thrown);
  const stacktrace =
    stackTraces && internal.code === 'INTERNAL_ERROR' && thrown instanceof Error
      ? { stacktrace: thrown.stack?.split('\n') }
      : {};
  return {
    message: internal.message,
    path: formatted.path,
    extensions: { ...internal.extensions, ...stacktrace },
  };
}

/**
 * GraphQL errors carry the same codes as REST (`extensions.code`, DECISIONS). Anything that is not
 * one of ours or a client mistake is an INTERNAL_ERROR with a bland message: internals never leak.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logInternal: (error: unknown) => void,
  options: { stackTraces?: boolean } = {},
): GraphQLFormattedError {
  const thrown = thrownBy(error);
  const ours = oursOf(thrown);
  if (ours) {
    const { locations, path } = formatted;
    return { message: ours.message, locations, path, extensions: ours.extensions };
  }
  const mistake = clientMistakeOf(formatted);
  if (mistake) return mistake;
  logInternal(thrown);
  // Only when a developer asked for it (GRAPHQL_STACK_TRACES), and only for what stays internal.
  return internalOf(formatted, thrown, options.stackTraces ?? false);
}

/**
 * A GraphQL response that failed because the database is unreachable is a 503 with Retry-After, like
 * REST, so clients and load balancers back off instead of treating it as a server bug.
 */
export const serviceUnavailableStatusPlugin: ApolloServerPlugin<BaseContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const unavailable = response.body.singleResult.errors?.find(
          (error) => error.extensions?.code === 'SERVICE_UNAVAILABLE',
        );
        if (!unavailable) return;
        const details = unavailable.extensions?.details as { retryAfterSeconds?: number } | undefined;
        response.http.status = 503;
        response.http.headers.set('retry-after', String(details?.retryAfterSeconds ?? 5));
      },
    };
  },
};
