import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import {
  ARGUMENT_REQUIREMENTS_EXTENSION,
  argumentValue,
  REQUIREMENT_EXTENSION,
  type ArgumentRequirement,
} from '../core/authorize.js';
import type { RequestContext } from '../core/request-context.js';
import { AppError } from '../core/errors.js';
import type { Requirement } from '../core/permissions.js';
import { assertRequirement, type Viewer } from '../core/viewer.js';

/** The root fields an operation selects, through inline fragments and fragment spreads. */
function rootFields(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen: Set<string> = new Set(),
): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      fields.push(...rootFields(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) fields.push(...rootFields(fragment.selectionSet, fragments, seen));
    }
  }
  return fields;
}

/** A request's variables as the operation sees them: the values given, else the operation's defaults. */
function variablesWithDefaults(
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = { ...variables };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (values[name] === undefined && definition.defaultValue)
      values[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return values;
}

/**
 * What each root field of an operation needs, read from the `@RequirePermission` metadata the resolvers
 * put in the schema (core/authorize.ts): the same requirement the resolver checks, known before execution.
 * With the request's variables, also the stricter requirement of every argument that is `true` in the
 * document or the variables (`input.deleteUser`); without them (a REST route compiled before any request),
 * only what the document itself says — the field's own check still applies the rest once its arguments
 * are known.
 */
export function operationRequirements(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode> = new Map(),
  variables?: Readonly<Record<string, unknown>>,
): Requirement[] {
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return [];
  const fields = rootType.getFields();
  const values = variables ? variablesWithDefaults(operation, variables) : {};
  const requirements: Requirement[] = [];
  for (const node of rootFields(operation.selectionSet, fragments)) {
    const field = fields[node.name.value];
    const requirement = field?.extensions?.[REQUIREMENT_EXTENSION] as Requirement | undefined;
    if (requirement) requirements.push(requirement);
    const stricter = field?.extensions?.[ARGUMENT_REQUIREMENTS_EXTENSION] as
      readonly ArgumentRequirement[] | undefined;
    if (!stricter?.length) continue;
    // The field's arguments as written (literals and variables), then its schema defaults for the rest.
    const args: Record<string, unknown> = {};
    for (const argument of field.args)
      if (argument.defaultValue !== undefined) args[argument.name] = argument.defaultValue;
    for (const argument of node.arguments ?? [])
      args[argument.name.value] = valueFromASTUntyped(argument.value, values);
    for (const { argument, requires } of stricter)
      if (argumentValue(args, argument) === true) requirements.push(requires);
  }
  return requirements;
}

/** Authorization before validation and existence: refuses (403) before any input is looked at. */
export function assertRequirements(viewer: Viewer, requirements: readonly Requirement[]): void {
  for (const requirement of requirements) assertRequirement(viewer, requirement);
}

/**
 * GraphQL's side of "authorization before validation": once Apollo has picked the operation, and before
 * variables are coerced or anything executes, every root field's requirement is checked. A field the
 * caller may not use refuses the whole operation (FORBIDDEN), rather than answering its input's problems.
 */
export function authorizeOperationPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const fragments = new Map<string, FragmentDefinitionNode>();
          for (const definition of document.definitions)
            if (definition.kind === Kind.FRAGMENT_DEFINITION)
              fragments.set(definition.name.value, definition);
          try {
            assertRequirements(
              contextValue.viewer,
              operationRequirements(schema, operation, fragments, request.variables),
            );
            // Checked here, before the variables: the fields' own @RequirePermission need not check again.
            contextValue.preAuthorized = new Set(
              rootFields(operation.selectionSet, fragments).map((field) => field.name.value),
            );
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            throw new GraphQLError(error.message, {
              originalError: error,
              extensions: { ...error.extensions, http: { status: error.httpStatus } },
            });
          }
        },
      };
    },
  };
}
