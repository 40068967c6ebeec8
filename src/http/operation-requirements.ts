import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { REQUIREMENT_EXTENSION } from '../core/authorize.js';
import type { RequestContext } from '../context.js';
import { AppError } from '../core/errors.js';
import type { Requirement } from '../core/permissions.js';
import { assertPermission, type Viewer } from '../core/viewer.js';

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

/**
 * What each root field of an operation needs, read from the `@RequirePermission` metadata the resolvers
 * put in the schema (core/authorize.ts): the same requirement the resolver checks, known before execution.
 */
export function operationRequirements(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode> = new Map(),
): Requirement[] {
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return [];
  const fields = rootType.getFields();
  const requirements: Requirement[] = [];
  for (const node of rootFields(operation.selectionSet, fragments)) {
    const requirement = fields[node.name.value]?.extensions?.[REQUIREMENT_EXTENSION] as
      Requirement | undefined;
    if (requirement) requirements.push(requirement);
  }
  return requirements;
}

/** Authorization before validation and existence: refuses (403) before any input is looked at. */
export function assertRequirements(viewer: Viewer, requirements: readonly Requirement[]): void {
  for (const requirement of requirements) assertPermission(viewer, requirement.permission, requirement);
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
        async didResolveOperation({ schema, document, operation, contextValue }) {
          if (!operation) return;
          const fragments = new Map<string, FragmentDefinitionNode>();
          for (const definition of document.definitions)
            if (definition.kind === Kind.FRAGMENT_DEFINITION)
              fragments.set(definition.name.value, definition);
          try {
            assertRequirements(contextValue.viewer, operationRequirements(schema, operation, fragments));
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
