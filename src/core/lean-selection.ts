import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

/**
 * Which columns a lean page reads (lean-read.ts): only those the GraphQL selection of its items needs, as
 * PostGraphile does. The users page selecting its 23 fields instead of the table's 41 columns cost PostgreSQL
 * 0.87–0.90 ms instead of 0.97 (docs/benchmarks.md, seventh and eighth rounds). REST runs the route's GraphQL
 * document, so its fixed selection arrives the same way, through the resolver's `info`.
 *
 * A field maps to the entity property of its name; a computed field (a getter, a field resolver) must be declared
 * with the properties it reads (`[]` for one that reads none, e.g. the users' `licenses` brought by the page's own
 * subquery). The id and the scope columns are always read. A selection with anything else (a field neither mapped
 * nor declared, a fragment it cannot follow) reads every column: a new computed field is never silently pruned.
 * A view built from some columns throws when code reads another one (lean-view-constructor.ts), so a declaration
 * that misses a column fails loudly, and test/perf/lean-columns-differential.test.ts compares pruned and full
 * answers.
 */
export interface LeanSelection<T> {
  /** The fields asked of each item; undefined: every column. */
  fields: ReadonlySet<string> | undefined;
  /** The properties each computed field reads. */
  computed: Readonly<Partial<Record<string, ReadonlyArray<keyof T & string>>>>;
}

/** Fields of the items under `path` in one root field's selection; undefined when the selection cannot be read. */
const itemFields = new WeakMap<FieldNode, ReadonlySet<string> | undefined>();

function fieldsOf(
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  into: Set<string>,
  depth = 0,
): boolean {
  if (!selectionSet || depth > 8) return false;
  for (const selection of selectionSet.selections) {
    if (selection.kind === 'Field') into.add(selection.name.value);
    else if (selection.kind === 'InlineFragment') {
      if (!fieldsOf(selection.selectionSet, fragments, into, depth + 1)) return false;
    } else {
      const fragment = fragments[selection.name.value];
      if (!fragment || !fieldsOf(fragment.selectionSet, fragments, into, depth + 1)) return false;
    }
  }
  return true;
}

/** The selections of the fields named `name` directly under `selectionSet` (fragments followed). */
function childSelections(
  selectionSet: SelectionSetNode | undefined,
  name: string,
  fragments: Record<string, FragmentDefinitionNode>,
  into: SelectionSetNode[],
  depth = 0,
): boolean {
  if (!selectionSet || depth > 8) return false;
  for (const selection of selectionSet.selections) {
    if (selection.kind === 'Field') {
      if (selection.name.value === name && selection.selectionSet) into.push(selection.selectionSet);
    } else if (selection.kind === 'InlineFragment') {
      if (!childSelections(selection.selectionSet, name, fragments, into, depth + 1)) return false;
    } else {
      const fragment = fragments[selection.name.value];
      if (!fragment || !childSelections(fragment.selectionSet, name, fragments, into, depth + 1))
        return false;
    }
  }
  return true;
}

/** When false, every lean page reads every column (a diagnosis switch; the differential test compares both). */
let pruning = true;

export function setLeanColumnPruning(on: boolean): void {
  pruning = on;
}

/**
 * The fields asked of the page's items (`items { … }` under the resolver's field, every occurrence merged, aliases
 * and fragments followed), remembered per document node; undefined (every column) when it cannot say.
 */
export function selectedItemFields(
  info: GraphQLResolveInfo | undefined,
  items = 'items',
): ReadonlySet<string> | undefined {
  if (!pruning || !info || info.fieldNodes.length !== 1) return undefined;
  const node = info.fieldNodes[0];
  if (itemFields.has(node)) return itemFields.get(node);
  const sets: SelectionSetNode[] = [];
  const fields = new Set<string>();
  const readable =
    childSelections(node.selectionSet, items, info.fragments, sets) &&
    sets.length > 0 &&
    sets.every((set) => fieldsOf(set, info.fragments, fields));
  const result = readable ? fields : undefined;
  itemFields.set(node, result);
  return result;
}
