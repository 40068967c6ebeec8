import { isCompiledQuery } from '../src/core/perf/graphql-jit-serializer.js';
import { compileLeanQuery } from '../src/core/perf/graphql-jit-leaf-arguments.js';
import {
  coerceInputValue,
  execute,
  type ExecutionResult,
  getOperationAST,
  GraphQLNonNull,
  parse,
  typeFromAST,
  validate,
  visit,
  Kind,
  type FieldNode,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Requirement } from '../src/core/permissions.js';
import { ARGUMENT_REQUIREMENTS_EXTENSION } from '../src/core/authorize.js';
import { operationRequirements } from '../src/http/operation-requirements.js';
import { slimLocations } from '../src/core/slim-locations.js';
import { TENANT_HEADER, type RouteDefinition } from './route.js';
import { planLeanRun } from './lean-run.js';

/** Where a variable's value came from, to name the right thing in an error. */
export interface VariableSource {
  from: 'path' | 'query' | 'body' | 'header' | 'tenant';
  /** The name the client used (path parameter, query parameter, header); for a whole body, ''. */
  name: string;
}

export interface CompiledRoute {
  definition: RouteDefinition;
  document: DocumentNode;
  rootField: string;
  variables: Map<string, { type: GraphQLInputType; hasDefault: boolean }>;
  sources: Map<string, VariableSource>;
  /** What the root field's resolver needs (its `@RequirePermission`), checked before the input is. */
  requirements: Requirement[];
  /** The root field's name, as `RequestContext.preAuthorized` once the handler has checked `requirementsFor`. */
  preAuthorized: ReadonlySet<string>;
  /**
   * The requirements once the request's variables are known: `requirements` plus the stricter requirement of an
   * argument the request turns on (`input.deleteUser` of offboardUser: an Admin key), checked before the input is
   * validated. The same list as `requirements` for the routes whose field declares no argument requirement.
   */
  requirementsFor(variables: Readonly<Record<string, unknown>>): Requirement[];
  /**
   * Runs the document: compiled once, on the first call, with graphql-jit (fixed documents are its best case).
   * `coerced`: the variables' values as `coercionProblems` coerced them, for a planned run not to coerce them again.
   */
  run(
    context: unknown,
    variables: Record<string, unknown>,
    coerced?: Readonly<Record<string, unknown>>,
  ): Promise<ExecutionResult> | ExecutionResult;
}

/**
 * Every `pageInfo { … total }` of a route also asks for `totalEstimated`, so REST's `meta` can say when a huge
 * list's total is an estimate (rest-adapter/envelope.ts) without each area's document having to remember it.
 */
export function withEstimatedTotals(document: DocumentNode): DocumentNode {
  return visit(document, {
    Field(node: FieldNode): FieldNode | undefined {
      if (node.name.value !== 'pageInfo' || !node.selectionSet) return undefined;
      const selected = node.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : ''));
      if (!selected.includes('total') || selected.includes('totalEstimated')) return undefined;
      const estimated: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: 'totalEstimated' } };
      return {
        ...node,
        selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, estimated] },
      };
    },
  });
}

/**
 * Parses and validates a route's document against the schema at start-up, so a route that does
 * not fit the schema stops the server (and the route-table test) rather than failing a client.
 */
export function compileRoute(
  definition: RouteDefinition,
  schema: GraphQLSchema,
  { leanRuns = true }: { leanRuns?: boolean } = {},
): CompiledRoute {
  const where = `${definition.method} ${definition.path}`;
  const document = withEstimatedTotals(parse(definition.operation));
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`REST route ${where}: ${errors.map((e) => e.message).join('; ')}`);
  // Kept for the server's life: without each location's token chain (src/core/slim-locations.ts).
  slimLocations(document);
  const operation = getOperationAST(document);
  if (!operation) throw new Error(`REST route ${where}: the document must hold exactly one operation`);
  const fields = operation.selectionSet.selections.filter((s) => s.kind === 'Field');
  if (fields.length !== 1 || fields[0].kind !== 'Field') {
    throw new Error(`REST route ${where}: the operation must select exactly one root field`);
  }
  const rootField = fields[0].alias?.value ?? fields[0].name.value;

  const variables = new Map<string, { type: GraphQLInputType; hasDefault: boolean }>();
  for (const definitionNode of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definitionNode.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`REST route ${where}: unknown type of $${definitionNode.variable.name.value}`);
    variables.set(definitionNode.variable.name.value, { type, hasDefault: !!definitionNode.defaultValue });
  }

  const sources = new Map<string, VariableSource>();
  for (const [param, variable] of Object.entries(definition.params ?? {}))
    sources.set(variable, { from: 'path', name: param });
  for (const [param, mapping] of Object.entries(definition.query ?? {})) {
    sources.set(mapping.variable ?? param, { from: 'query', name: param });
  }
  for (const [header, mapping] of Object.entries(definition.headers ?? {})) {
    sources.set(mapping.variable, { from: 'header', name: header });
  }
  if (definition.tenant) sources.set(definition.tenant, { from: 'tenant', name: TENANT_HEADER });
  if (definition.body && definition.body !== 'spread')
    sources.set(definition.body, { from: 'body', name: '' });
  for (const name of sources.keys()) {
    if (!variables.has(name))
      throw new Error(`REST route ${where}: maps to $${name}, which the operation does not declare`);
  }
  if (definition.tenant && !(variables.get(definition.tenant)?.type instanceof GraphQLNonNull)) {
    throw new Error(`REST route ${where}: the tenant variable $${definition.tenant} must be non-null`);
  }
  // Compiled on the route's first call, not here: graphql-jit takes ~0.5 s for all routes, which a restart
  // would otherwise wait for before answering (issue #11 item 6); the document is validated above either way.
  let compiled: CompiledRoute['run'] | undefined;
  const run: CompiledRoute['run'] = (context, variableValues, coerced) => {
    compiled ??= runnerOf(schema, document, operation, leanRuns);
    return compiled(context, variableValues, coerced);
  };
  const requirements = operationRequirements(schema, operation);
  const rootDefinition = schema.getRootType(operation.operation)?.getFields()[fields[0].name.value];
  const dependsOnArguments = Boolean(
    (rootDefinition?.extensions?.[ARGUMENT_REQUIREMENTS_EXTENSION] as readonly unknown[] | undefined)?.length,
  );
  const requirementsFor = dependsOnArguments
    ? (values: Readonly<Record<string, unknown>>) =>
        operationRequirements(schema, operation, new Map(), values)
    : () => requirements;
  const preAuthorized = new Set([fields[0].name.value]);
  return {
    definition,
    document,
    rootField,
    variables,
    sources,
    requirements,
    preAuthorized,
    requirementsFor,
    run,
  };
}

/** graphql-jit's runner, behind the route's planned run when its document has one (./lean-run.ts). */
function runnerOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  leanRuns: boolean,
): CompiledRoute['run'] {
  const jit = jitRunner(schema, document);
  const lean = leanRuns ? planLeanRun(schema, document, operation) : null;
  return lean
    ? (context, variables, coerced) => lean(context, variables, () => jit(context, variables), coerced)
    : jit;
}

function jitRunner(schema: GraphQLSchema, document: DocumentNode): CompiledRoute['run'] {
  const jit = compileLeanQuery(schema, document);
  return isCompiledQuery(jit)
    ? (context, variableValues) => jit.query(undefined, context, variableValues)
    : (contextValue, variableValues) => execute({ schema, document, contextValue, variableValues });
}

export interface CoercionProblem {
  variable: string;
  path: string;
  problem: string;
}

/**
 * Checks every variable against its type, collecting each problem with the path inside the value. `coerced`, when
 * given, receives each variable's coerced value that had no problem (what graphql-js's `coerceInputValue` answers),
 * so the planned run does not coerce it a second time (rest-adapter/lean-arguments.ts).
 */
export function coercionProblems(
  route: CompiledRoute,
  values: Record<string, unknown>,
  coerced?: Record<string, unknown>,
): CoercionProblem[] {
  const problems: CoercionProblem[] = [];
  for (const [variable, { type, hasDefault }] of route.variables) {
    const value = values[variable];
    if (value === undefined) {
      if (type instanceof GraphQLNonNull && !hasDefault)
        problems.push({ variable, path: '', problem: 'is required' });
      continue;
    }
    const before = problems.length;
    const result: unknown = coerceInputValue(value, type, (path, _invalid, error) => {
      problems.push({ variable, path: path.join('.'), problem: error.message });
    });
    if (coerced && problems.length === before) coerced[variable] = result;
  }
  return problems;
}
