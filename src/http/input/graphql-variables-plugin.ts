import type { ApolloServerPlugin } from '@apollo/server';
import {
  coerceInputValue,
  GraphQLError,
  Kind,
  typeFromAST,
  valueFromAST,
  visit,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';
import type { FieldProblem } from '../../core/errors.js';
import {
  argumentRuleProblems,
  coercedOrUndefined,
  fieldsWithArguments,
  invalidFields,
} from './argument-rules.js';

/** Names the argument (and path inside it) of a validation error about a literal value, when it is one. */
function nameLiteral(error: GraphQLError, document: DocumentNode | undefined): boolean {
  const at = error.nodes?.[0]?.loc;
  if (!document || !at || error.extensions.details !== undefined) return false;
  let field: string | undefined;
  const walk = (node: ValueNode, path: string[]): void => {
    if (!node.loc || node.loc.start > at.start || node.loc.end < at.end) return;
    field = path.join('.');
    if (node.kind === Kind.OBJECT)
      for (const item of node.fields) walk(item.value, [...path, item.name.value]);
    if (node.kind === Kind.LIST) node.values.forEach((item, index) => walk(item, [...path, String(index)]));
  };
  visit(document, { Argument: (node) => walk(node.value, [node.name.value]) });
  if (field === undefined) return false;
  error.extensions.details = { fields: [{ field, problem: error.message }] };
  return true;
}

/** The rule problems of the arguments written with values of the right type (no variable in them). */
async function literalRuleProblems(schema: GraphQLSchema, document: DocumentNode): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const { parent, field, node } of fieldsWithArguments(schema, document)) {
    const args: Record<string, unknown> = {};
    for (const argument of node.arguments ?? []) {
      const definition = field.args.find((arg) => arg.name === argument.name.value);
      const value = definition && valueFromAST(argument.value, definition.type);
      if (value !== undefined) args[argument.name.value] = value;
    }
    for (const { argument, path, problem } of await argumentRuleProblems(parent, field, args))
      problems.push({ field: [argument, path].filter(Boolean).join('.'), problem });
  }
  return problems;
}

/**
 * GraphQL's side of "every bad field at once" (issue #32 item 2, argument-rules.ts). graphql-js refuses
 * variables of the wrong type before anything runs, one error per variable and no `details.fields`, and the
 * rules of the other arguments (`limit` ≤ 100) are not looked at. Once the operation is known, this checks the
 * variables' types itself and, when some are wrong, answers one INVALID_REQUEST naming each of them and the
 * rule problems of the arguments given well-typed variables. Each is named by the argument it is given to
 * (its path inside), or `$variable` for one used only inside an input object. Literals of the wrong type
 * fail the document's validation earlier: their errors are given `details.fields` too, the first one also
 * the rule problems of the arguments written well.
 */
export function variableProblemsPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    requestDidStart: async () => ({
      // A literal of the wrong type fails the document's validation (one error per value): each is given
      // `details.fields` naming the argument it was written for, as a variable's would be.
      validationDidStart:
        async ({ document, schema }) =>
        async (errors) => {
          const named = (errors ?? []).filter(
            (error): error is GraphQLError => error instanceof GraphQLError && nameLiteral(error, document),
          );
          if (named.length === 0 || !document) return;
          const [first] = named;
          const fields = (first.extensions.details as { fields: FieldProblem[] }).fields;
          fields.push(...(await literalRuleProblems(schema, document)));
        },
      didResolveOperation: async ({ request, document, operation, schema }) => {
        if (!operation?.variableDefinitions?.length) return;
        const given = request.variables ?? {};
        const typeProblems: FieldProblem[] = [];
        const bad = new Set<string>();
        const declared = new Map<string, GraphQLInputType>();
        for (const definition of operation.variableDefinitions) {
          const name = definition.variable.name.value;
          const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
          if (!type) return; // an unknown type: graphql-js's validation has answered already
          declared.set(name, type);
          const value = given[name];
          if (value === undefined) continue; // missing and defaults: graphql-js's own answers
          coerceInputValue(value, type, (path, _value, error) => {
            bad.add(name);
            typeProblems.push({ field: [name, ...path].join('.'), problem: error.message });
          });
        }
        if (typeProblems.length === 0) return;
        const fields = fieldsWithArguments(schema, document);
        // A variable is named by the first argument it is given to.
        const argumentOf = new Map<string, string>();
        for (const { node } of fields)
          for (const argument of node.arguments ?? [])
            if (argument.value.kind === Kind.VARIABLE && !argumentOf.has(argument.value.name.value))
              argumentOf.set(argument.value.name.value, argument.name.value);
        const problems = typeProblems.map(({ field, problem }) => {
          const [variable, ...path] = field.split('.');
          return { field: [argumentOf.get(variable) ?? `$${variable}`, ...path].join('.'), problem };
        });
        for (const { parent, field, node } of fields) {
          const args: Record<string, unknown> = {};
          for (const argument of node.arguments ?? []) {
            if (argument.value.kind !== Kind.VARIABLE) continue;
            const variable = argument.value.name.value;
            const type = declared.get(variable);
            if (!type || bad.has(variable) || given[variable] === undefined) continue;
            const value = coercedOrUndefined(given[variable], type);
            if (value !== undefined) args[argument.name.value] = value;
          }
          for (const { argument, path, problem } of await argumentRuleProblems(parent, field, args))
            problems.push({ field: [argument, path].filter(Boolean).join('.'), problem });
        }
        const appError = invalidFields(problems);
        throw new GraphQLError(appError.message, {
          originalError: appError,
          extensions: { ...appError.extensions, http: { status: 400 } },
        });
      },
    }),
  };
}
