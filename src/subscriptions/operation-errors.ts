import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { AppError, type ErrorCode } from '../core/errors.js';
import { formatGraphQLError } from '../http/graphql-errors.js';
import { QUERY_LIMIT_RULES, QUERY_LIMITS } from '../http/query-limits.js';

/** An AppError as graphql-ws sends it in an `error` message: the same code and details as HTTP. */
export function graphQLErrorOf(error: AppError): GraphQLError {
  return new GraphQLError(error.message, { originalError: error, extensions: error.extensions });
}

function clientMistake(error: GraphQLError, reason: string): GraphQLError {
  const code: ErrorCode = 'INVALID_REQUEST';
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { code, details: { reason } },
  });
}

/**
 * Parses and validates an operation. A mistake becomes an `error` message for that operation only;
 * graphql-ws's own parse would throw and close the whole connection with 4500.
 */
export function checkDocument(
  schema: GraphQLSchema,
  query: string,
): { document: DocumentNode } | { errors: GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: QUERY_LIMITS.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [clientMistake(error, 'GRAPHQL_PARSE_FAILED')] };
    throw error;
  }
  const problems = validate(schema, document, [...specifiedRules, ...QUERY_LIMIT_RULES]);
  if (problems.length > 0)
    return { errors: problems.map((problem) => clientMistake(problem, 'GRAPHQL_VALIDATION_FAILED')) };
  return { document };
}

/** The same error shape as POST /graphql: our codes, client mistakes as INVALID_REQUEST, internals hidden. */
export function formatOperationError(
  error: GraphQLError,
  logInternal: (error: unknown) => void,
): GraphQLFormattedError {
  const original = error.originalError;
  if (original instanceof AppError)
    return {
      message: original.message,
      locations: error.locations,
      path: error.path,
      extensions: original.extensions,
    };
  if (!original) {
    // variable coercion errors, or one of ours that already carries its code
    if (typeof error.extensions.code === 'string') return error.toJSON();
    return clientMistake(error, 'GRAPHQL_VALIDATION_FAILED').toJSON();
  }
  return formatGraphQLError(error.toJSON(), error, logInternal);
}
