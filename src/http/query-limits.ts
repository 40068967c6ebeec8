import {
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isCompositeType,
  isListType,
  isNonNullType,
  Kind,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  visit,
} from 'graphql';
import { getComplexity, type ComplexityEstimatorArgs } from 'graphql-query-complexity/cjs';
import { jobUnitsOf, STARTS_JOB_EXTENSION, type JobWork } from '../core/job-charges.js';
import { LIST_BOUNDS } from './list-bounds.js';

/**
 * What one GraphQL document may ask for (docs/api.md "Query limits"). Checked before anything executes,
 * so a single request cannot buy more work than a handful of REST pages. Every REST route's document
 * stays well within them (test/hardening/query-limits.test.ts).
 */
export const QUERY_LIMITS = {
  /** Lexical tokens of the document (graphql-js `maxTokens`): stops huge documents before parsing them. */
  maxTokens: 3_000,
  /** Nesting of fields, through fragments (the standard introspection query is 13 deep). */
  maxDepth: 15,
  /** Aliased fields in the whole document: each alias can repeat a root query. */
  maxAliases: 30,
  /** Directive uses in the whole document. */
  maxDirectives: 30,
  /** Field cost (below) of the operation. */
  maxCost: 30_000,
  /** Cost bought by one rate-limit point: about one full page (100) of users. */
  costPerRatePoint: 3_000,
  /** Fields that queue a job (`@StartsJob`, core/job-charges.ts) in one document. */
  maxJobFields: 1,
} as const;

/**
 * A list of objects with neither a `limit` argument nor a bound (list-bounds.ts): only a schema that
 * test/hardening/list-bounds.test.ts refuses has one; costed as if full of 1,000 items meanwhile.
 */
const UNKNOWN_LIST_BOUND = 1000;

/**
 * A limit exceeded. Apollo answers it as GRAPHQL_VALIDATION_FAILED (HTTP 400), which formatGraphQLError
 * turns into INVALID_REQUEST keeping these details: which limit, its maximum, and this query's value.
 */
export function queryLimitError(limit: string, maximum: number, actual?: number): GraphQLError {
  const over = actual === undefined ? '' : ` (this one: ${actual})`;
  return new GraphQLError(`The query exceeds the ${limit} limit of ${maximum}${over}`, {
    extensions: { details: { limit, maximum, ...(actual === undefined ? {} : { actual }) } },
  });
}

/**
 * Deepest field nesting of a selection set, following fragment spreads; stops counting once past
 * `cap`, so a 5,000-deep document costs no more stack than a `cap`-deep one.
 */
function depthOf(
  selectionSet: SelectionSetNode | undefined,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  cap: number,
  visiting: Set<string> = new Set(),
): number {
  if (!selectionSet || cap <= 0) return 0;
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    let depth = 0;
    if (selection.kind === Kind.FIELD) {
      depth = selection.selectionSet ? 1 + depthOf(selection.selectionSet, fragments, cap - 1, visiting) : 1;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = depthOf(selection.selectionSet, fragments, cap, visiting);
    } else {
      const fragment = fragments.get(selection.name.value);
      if (fragment && !visiting.has(fragment.name.value)) {
        visiting.add(fragment.name.value);
        depth = depthOf(fragment.selectionSet, fragments, cap, visiting);
        visiting.delete(fragment.name.value);
      }
    }
    deepest = Math.max(deepest, depth);
    if (deepest > cap) break;
  }
  return deepest;
}

export function depthLimitRule(maxDepth: number = QUERY_LIMITS.maxDepth): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, fragments, maxDepth + 1);
        if (depth > maxDepth) context.reportError(queryLimitError('depth', maxDepth));
        return false;
      },
    };
  };
}

/** Counts nodes over the whole document and reports once, at the end, when there are too many. */
function countLimitRule(limit: string, maximum: number, counts: (node: ASTNode) => boolean): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let count = 0;
    return {
      enter(node) {
        if (counts(node)) count++;
      },
      leave(node) {
        if (node.kind === Kind.DOCUMENT && count > maximum)
          context.reportError(queryLimitError(limit, maximum, count));
      },
    };
  };
}

export const aliasLimitRule = (maximum: number = QUERY_LIMITS.maxAliases): ValidationRule =>
  countLimitRule('aliases', maximum, (node) => node.kind === Kind.FIELD && !!node.alias);

export const directiveLimitRule = (maximum: number = QUERY_LIMITS.maxDirectives): ValidationRule =>
  countLimitRule('directives', maximum, (node) => node.kind === Kind.DIRECTIVE);

/**
 * At most `maximum` job-starting fields (`@StartsJob`) in a document: each queues a job, and aliases would
 * queue any number of them for one request (issue #32 item 4).
 */
export function jobFieldLimitRule(maximum: number = QUERY_LIMITS.maxJobFields): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let count = 0;
    return {
      Field() {
        if (context.getFieldDef()?.extensions?.[STARTS_JOB_EXTENSION]) count++;
      },
      Document: {
        leave() {
          if (count > maximum) context.reportError(queryLimitError('jobFields', maximum, count));
        },
      },
    };
  };
}

/** The validation rules every executed document passes (POST/GET /graphql and graphql-ws). */
export const QUERY_LIMIT_RULES: readonly ValidationRule[] = [
  depthLimitRule(),
  aliasLimitRule(),
  directiveLimitRule(),
  jobFieldLimitRule(),
];

function isListOutput(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/** Values of the arguments list bounds depend on (ArgumentBound), as the document gives them. */
type BoundArguments = ReadonlyMap<string, number>;

/**
 * The most items an unpaged list field holds: its `expectedListSize` extension (one row per platform), else
 * its row of LIST_BOUNDS (a number, or the value of the argument it follows, capped).
 */
export function listBoundOf(
  typeName: string,
  field: { name: string; extensions?: Record<string, unknown> | null },
  argumentValues: BoundArguments = new Map(),
): number {
  const expected = field.extensions?.expectedListSize;
  if (typeof expected === 'number') return expected;
  const bound = LIST_BOUNDS[`${typeName}.${field.name}`];
  if (bound === undefined) return UNKNOWN_LIST_BOUND;
  if (typeof bound === 'number') return bound;
  const given = argumentValues.get(bound.argument) ?? bound.default;
  return Math.min(bound.max, Math.max(1, given));
}

/** The largest value the document gives each argument a bound follows (literal or variable). */
function boundArgumentsOf(document: DocumentNode, variables: Record<string, unknown>): BoundArguments {
  const names = new Set(
    Object.values(LIST_BOUNDS).flatMap((bound) => (typeof bound === 'number' ? [] : [bound.argument])),
  );
  const values = new Map<string, number>();
  visit(document, {
    Argument(node) {
      if (!names.has(node.name.value)) return;
      const value =
        node.value.kind === Kind.INT
          ? Number(node.value.value)
          : node.value.kind === Kind.VARIABLE
            ? variables[node.value.name.value]
            : undefined;
      if (typeof value === 'number')
        values.set(node.name.value, Math.max(values.get(node.name.value) ?? 0, value));
    },
  });
  return values;
}

/**
 * Field cost: every field costs 1 plus what it selects; a field with a `limit` argument (every paged
 * list) multiplies what it selects by that limit (its page's `items` are not multiplied again); another
 * list of objects by its bound (listBoundOf).
 * Introspection fields cost 1 whatever they select: the schema is finite and the same for everyone.
 */
function fieldCost(
  { type, field, args, childComplexity }: ComplexityEstimatorArgs,
  argumentValues: BoundArguments,
): number {
  if (field.name.startsWith('__')) return 1;
  const job = field.extensions?.[STARTS_JOB_EXTENSION] as JobWork | undefined;
  if (job) {
    // Its work: one rate point for the job, and its units (rows, items, tenants).
    return 1 + childComplexity + QUERY_LIMITS.costPerRatePoint + jobUnitsOf(job, args) * (job.perUnit ?? 0);
  }
  if (typeof args.limit === 'number') return 1 + Math.max(1, args.limit) * childComplexity;
  // The items of a page (a type with pageInfo) are already multiplied by the paging field's limit.
  const isPageItems = 'getFields' in type && 'pageInfo' in type.getFields();
  if (!isPageItems && isListOutput(field.type) && isCompositeType(getNamedType(field.type))) {
    return 1 + listBoundOf(type.name, field, argumentValues) * childComplexity;
  }
  return 1 + childComplexity;
}

/**
 * The cost of the operation that would run (variables and @skip/@include applied). Variables that do not
 * fit their types make the cost 0: graphql-js refuses such an operation before executing anything. A
 * document whose fragments expand past 10,000 field nodes costs Infinity (over any limit).
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
): number {
  const operation = getOperationAST(document, operationName);
  if (!operation) return 0;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors?.length) return 0;
  try {
    const argumentValues = boundArgumentsOf(document, coerced.coerced ?? {});
    return getComplexity({
      schema,
      query: document,
      variables,
      operationName,
      estimators: [(args) => fieldCost(args, argumentValues)],
    });
  } catch (error) {
    if (error instanceof GraphQLError) return Number.POSITIVE_INFINITY;
    throw error;
  }
}

/** Rate-limit points a query of this cost is charged (at least one: every request counts one). */
export function ratePointsOf(cost: number): number {
  return Math.max(1, Math.ceil(cost / QUERY_LIMITS.costPerRatePoint));
}
