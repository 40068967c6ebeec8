import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, visit, type DocumentNode, type ValueNode } from 'graphql';
import { type FieldProblem, invalid } from '../../core/errors.js';
import { unsafeTextProblem, unsafeTextProblems, type TextProblem } from './unsafe-text.js';

const pathText = (path: Array<string | number>) => path.join('.');

/** Per parsed document: Apollo hands every request of the same text the same document (its document cache). */
const literalProblemsByDocument = new WeakMap<DocumentNode, TextProblem[]>();

/** Unsafe strings written into the document itself (arguments, defaults), named by argument path. */
function literalProblems(document: DocumentNode): TextProblem[] {
  let problems = literalProblemsByDocument.get(document);
  if (!problems) {
    problems = findLiteralProblems(document);
    literalProblemsByDocument.set(document, problems);
  }
  return problems;
}

function findLiteralProblems(document: DocumentNode): TextProblem[] {
  const problems: TextProblem[] = [];
  const walk = (node: ValueNode, path: Array<string | number>): void => {
    if (node.kind === Kind.STRING) {
      const problem = unsafeTextProblem(node.value);
      if (problem) problems.push({ path, problem });
    } else if (node.kind === Kind.LIST) {
      node.values.forEach((item, index) => walk(item, [...path, index]));
    } else if (node.kind === Kind.OBJECT) {
      for (const field of node.fields) walk(field.value, [...path, field.name.value]);
    }
  };
  visit(document, {
    Argument: (node) => walk(node.value, [node.name.value]),
    VariableDefinition: (node) => {
      if (node.defaultValue) walk(node.defaultValue, [node.variable.name.value]);
    },
  });
  return problems;
}

/**
 * GraphQL's entry point for the text rule of `unsafe-text.ts`: variables and literals are checked once the
 * operation is known and before anything runs, so no resolver (and no transaction) ever sees such a string.
 * The REST adapter checks its variables itself (rest-adapter/handler.ts) and names the client's fields.
 */
export function unsafeTextPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    requestDidStart: async () => ({
      didResolveOperation: async ({ request, document }) => {
        const problems = [...unsafeTextProblems(request.variables ?? {}), ...literalProblems(document)];
        if (problems.length === 0) return;
        const fields: FieldProblem[] = problems.map((p) => ({ field: pathText(p.path), problem: p.problem }));
        const appError = invalid(fields);
        throw new GraphQLError(appError.message, {
          originalError: appError,
          extensions: { ...appError.extensions, http: { status: 400 } },
        });
      },
    }),
  };
}
