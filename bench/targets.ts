import { parse, type FieldNode, type SelectionSetNode } from 'graphql';
import { LIST_USERS } from '../src/users/user.rest.js';

/** The three ways of reading the hot tenant's first page of users. */
export function restUsersPath(tenantId: string, limit: number): string {
  return `/v1/tenants/${tenantId}/users?limit=${limit}`;
}

/**
 * GraphQL runs the very document the REST route runs, so the two select the same fields and their
 * difference is the REST adapter's own cost.
 */
export const GRAPHQL_USERS_DOCUMENT = LIST_USERS;

export function graphqlUsersBody(tenantId: string, limit: number): string {
  return JSON.stringify({ query: GRAPHQL_USERS_DOCUMENT, variables: { tenantId, limit } });
}

function fieldsOf(selectionSet: SelectionSetNode | undefined): FieldNode[] {
  return (selectionSet?.selections ?? []).filter((node): node is FieldNode => node.kind === 'Field');
}

/** The field names selected under `items` of a list document's root field (what the raw server must return). */
export function itemFieldsOf(document: string): string[] {
  const [definition] = parse(document).definitions;
  if (definition?.kind !== 'OperationDefinition') throw new Error('expected one operation');
  const [root] = fieldsOf(definition.selectionSet);
  const items = fieldsOf(root?.selectionSet).find((field) => field.name.value === 'items');
  if (!items) throw new Error('the operation selects no items');
  return fieldsOf(items.selectionSet).map((field) => field.alias?.value ?? field.name.value);
}
