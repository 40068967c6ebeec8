import {
  isNonNullType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { planLeanRun, type LeanRun } from '../core/lean-plan/lean-run.js';

/**
 * GraphQL queries on the REST routes' per-route plans (src/core/lean-plan/lean-run.ts, issue #31 goal 1, ninth round).
 *
 * A document Apollo has parsed, validated and cost-checked is planned once per operation (by its parsed document,
 * which Apollo's document store keeps per text, and operation name): which property, serializer or direct field
 * resolver answers each field, as for a REST route. The executor (src/core/jit-gateway.ts) then runs the plan
 * instead of graphql-jit, on Apollo's path and on the fast path alike, so every plugin (authorization, input
 * checks, cost, metrics, request log, status) sees the request as before: only execution changes.
 *
 * The plan takes what the REST plans take: a query of one root field, without fragments or directives, whose
 * fields are properties, direct field resolvers, `__typename`, scalars, enums, lists and objects. Everything else
 * (several root fields, fragments, @include/@skip, introspection, mutations, subscriptions) has no plan and runs
 * through graphql-jit. A run that leaves the happy path (a null in a non-null field, a serializer that refuses,
 * variables graphql-js refuses...) hands the request back to graphql-jit, which runs the document from the start
 * and answers with its errors. The one error a plan answers itself is the root resolver's, which graphql-jit
 * answers as one error and a null in the root field (or a null `data` when the root field is non-null): added here,
 * since a REST route reads only the errors. test/http/graphql-lean-run.test.ts compares both ways byte for byte.
 */
export type GraphQLLeanRun = LeanRun;

let started = 0;
let answered = 0;
let handedBack = 0;

/**
 * GraphQL requests that ran a plan in this process (started: whatever came of it), those it answered and those it
 * handed back to graphql-jit (tests read them). A request no plan started ran graphql-jit alone.
 */
export function graphqlLeanRunCounts(): { started: number; answered: number; handedBack: number } {
  return { started, answered, handedBack };
}

/**
 * Whether plans run for the request being executed: AppOptions' `graphqlLeanRuns` as a function, which only tests
 * give (test/http/graphql-lean-run.test.ts asks one server for the same request with and without its plans). No
 * configuration makes a function: a server started by src/main.ts passes no `graphqlLeanRuns` at all.
 */
export type LeanRunSwitch = () => boolean;

const ALWAYS: LeanRunSwitch = () => true;

/**
 * The plan of `operation` in `document`, or null when graphql-jit runs it. `enabled` false at a request: that
 * request runs graphql-jit from the start, as on a server without plans (its counts unchanged).
 */
export function planGraphQLLeanRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  enabled: LeanRunSwitch = ALWAYS,
): GraphQLLeanRun | null {
  const { selections } = operation.selectionSet;
  // The REST plans run a route's one root field; several root fields (each its own resolver) are graphql-jit's.
  if (operation.operation !== 'query' || selections.length !== 1) return null;
  const [node] = selections;
  if (node.kind !== Kind.FIELD) return null;
  const field = schema.getQueryType()?.getFields()[node.name.value];
  if (!field) return null; // __typename, __schema, __type: introspection stays graphql-jit's
  const plan = planLeanRun(schema, document, operation);
  if (!plan) return null;
  const key = node.alias?.value ?? node.name.value;
  const rootNonNull = isNonNullType(field.type);
  // graphql-jit's answer to a root resolver's error: the error, and null where the root field's value would be.
  const withData = (result: ExecutionResult): ExecutionResult =>
    result.errors && !('data' in result)
      ? { errors: result.errors, data: rootNonNull ? null : { [key]: null } }
      : result;
  return (context, variables, fallback) => {
    if (!enabled()) return fallback();
    started++;
    let fellBack = false;
    const jit = () => {
      fellBack = true;
      return fallback();
    };
    const count = (result: ExecutionResult): ExecutionResult => {
      if (fellBack) handedBack++;
      else answered++;
      return fellBack ? result : withData(result);
    };
    const result = plan(context, variables, jit);
    return result instanceof Promise ? result.then(count) : count(result);
  };
}
