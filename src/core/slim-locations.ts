import type { ASTNode, Location, Source } from 'graphql';

/** What a kept document's locations still answer: graphql-js's error locations, graphql-jit's line and column. */
interface SlimLocation {
  readonly start: number;
  readonly end: number;
  readonly source: Source;
  readonly startToken: { readonly line: number; readonly column: number };
}

const isNode = (value: unknown): value is ASTNode =>
  typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';

/**
 * Replaces every `loc` of a parsed document, kept for the server's life, by one that holds its start, end,
 * source and first token's line and column only (issue #31 goal 4). graphql-js's `Location` keeps its first
 * and last `Token`, and tokens are a doubly linked list: each location holds the document's whole token chain,
 * ~0.9 MiB of heap over the REST routes' documents. What reads a location after parsing and validation:
 * `GraphQLError` (`source` and `start`, for `locations` and printing) and graphql-jit (`startToken.line` and
 * `.column`); both are kept (test/core/slim-locations.test.ts). Mutates the document (its nodes are plain
 * objects made by `parse`).
 */
export function slimLocations<T extends ASTNode>(document: T): T {
  const seen = new Set<object>();
  const visit = (node: ASTNode) => {
    if (seen.has(node)) return;
    seen.add(node);
    const loc: Location | undefined = node.loc;
    if (loc) {
      const slim: SlimLocation = {
        start: loc.start,
        end: loc.end,
        source: loc.source,
        startToken: { line: loc.startToken.line, column: loc.startToken.column },
      };
      (node as { loc?: unknown }).loc = slim;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc') continue;
      if (Array.isArray(value)) for (const item of value) if (isNode(item)) visit(item);
      if (isNode(value)) visit(value);
    }
  };
  visit(document);
  return document;
}
