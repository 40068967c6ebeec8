import {
  coerceInputValue,
  isNonNullType,
  Kind,
  typeFromAST,
  valueFromAST,
  visit,
  BREAK,
  type FieldNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';

/**
 * A planned run's variables and root arguments (rest-adapter/lean-run.ts), computed as graphql-js's
 * `getVariableValues` and `getArgumentValues` compute them, with what does not depend on the request worked out once
 * per route: the variables' types and defaults, each argument's source (a variable, a constant written in the
 * document, or its default). Those two generic functions were ~2% of a REST list's CPU in a planned run's profile
 * (graphql-jit compiles the same per document). Anything they would refuse answers undefined, and the run hands the
 * request to graphql-jit, which answers with its own error.
 */
export type ArgumentsOf = (
  inputs: Readonly<Record<string, unknown>>,
  /** Values of `inputs` already coerced by `coerceInputValue` to their variable's type (not coerced again). */
  coerced?: Readonly<Record<string, unknown>>,
) => { variables: Record<string, unknown>; args: Record<string, unknown> } | undefined;

interface VariablePlan {
  name: string;
  type: GraphQLInputType;
  nonNull: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
}

interface ArgumentPlan {
  name: string;
  nonNull: boolean;
  defaultValue: unknown;
  /** The variable the document passes, if it passes one. */
  variable?: string;
  /** The document's literal, coerced (when it passes one). */
  given: boolean;
  constant?: unknown;
}

function holdsVariables(value: ValueNode): boolean {
  let found = false;
  visit(value, {
    Variable() {
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** The plan of `field`'s arguments and the operation's variables, or null when only graphql-js can say. */
export function argumentsOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
): ArgumentsOf | null {
  const variables: VariablePlan[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) return null;
    const defaultValue = definition.defaultValue ? valueFromAST(definition.defaultValue, type) : undefined;
    if (definition.defaultValue && defaultValue === undefined) return null;
    variables.push({
      name: definition.variable.name.value,
      type,
      nonNull: isNonNullType(type),
      hasDefault: definition.defaultValue !== undefined,
      defaultValue,
    });
  }
  const given = new Map((node.arguments ?? []).map((argument) => [argument.name.value, argument.value]));
  const args: ArgumentPlan[] = [];
  for (const definition of field.args) {
    const value = given.get(definition.name);
    const plan: ArgumentPlan = {
      name: definition.name,
      nonNull: isNonNullType(definition.type),
      defaultValue: definition.defaultValue,
      given: false,
    };
    if (value?.kind === Kind.VARIABLE) plan.variable = value.name.value;
    else if (value) {
      if (holdsVariables(value)) return null;
      plan.constant = valueFromAST(value, definition.type);
      if (plan.constant === undefined) return null;
      plan.given = true;
    }
    args.push(plan);
  }
  return (inputs, precoerced) => {
    const coerced: Record<string, unknown> = {};
    for (const variable of variables) {
      if (!Object.hasOwn(inputs, variable.name)) {
        if (variable.hasDefault) coerced[variable.name] = variable.defaultValue;
        else if (variable.nonNull) return undefined;
        continue;
      }
      const value = inputs[variable.name];
      if (value === undefined || (value === null && variable.nonNull)) return undefined;
      if (precoerced !== undefined && Object.hasOwn(precoerced, variable.name)) {
        coerced[variable.name] = precoerced[variable.name];
        continue;
      }
      let refused = false;
      coerced[variable.name] = coerceInputValue(value, variable.type, () => {
        refused = true;
      });
      if (refused) return undefined;
    }
    const values: Record<string, unknown> = {};
    for (const argument of args) {
      if (argument.given) {
        values[argument.name] = argument.constant;
        continue;
      }
      if (argument.variable !== undefined && Object.hasOwn(coerced, argument.variable)) {
        const value = coerced[argument.variable];
        if (value == null && argument.nonNull) return undefined;
        values[argument.name] = value;
        continue;
      }
      if (argument.defaultValue !== undefined) values[argument.name] = argument.defaultValue;
      else if (argument.nonNull) return undefined;
    }
    return { variables: coerced, args: values };
  };
}
