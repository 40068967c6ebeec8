import {
  coerceInputValue,
  isInputType,
  isNonNullType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

interface VariablePlan {
  name: string;
  type: GraphQLInputType;
  nonNull: boolean;
  hasDefault: boolean;
}

type Check = (inputs: Readonly<Record<string, unknown>>) => boolean;

/**
 * Whether graphql-js's `getVariableValues` accepts a request's variables, with what depends only on the operation
 * (each variable's type from the document, its nullability, whether it has a default) worked out once per
 * operation (issue #31, ninth round: graphql-js's generic walk, `typeFromAST` and the type checks of every
 * variable on every request, was 1.4% of a GraphQL list's CPU). Per request it does what `coerceVariableValues`
 * does, in the same order, with the same `coerceInputValue`, and answers only yes or no: a refused request goes
 * to `getVariableValues` for its error messages (src/core/jit-gateway.ts `variableErrors`).
 */
export class VariableCheck {
  private readonly checks = new WeakMap<OperationDefinitionNode, Check | null>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** True when `getVariableValues` would answer no errors; false when it might answer some. */
  accepts(operation: OperationDefinitionNode, inputs: Readonly<Record<string, unknown>>): boolean {
    let check = this.checks.get(operation);
    if (check === undefined) this.checks.set(operation, (check = this.checkOf(operation)));
    return check !== null && check(inputs);
  }

  private checkOf(operation: OperationDefinitionNode): Check | null {
    const plans: VariablePlan[] = [];
    for (const definition of operation.variableDefinitions ?? []) {
      const type = typeFromAST(this.schema, definition.type);
      // Not an input type: graphql-js answers its error (validation refuses such a document first).
      if (!type || !isInputType(type)) return null;
      plans.push({
        name: definition.variable.name.value,
        type,
        nonNull: isNonNullType(type),
        hasDefault: !!definition.defaultValue,
      });
    }
    return (inputs) => {
      for (const plan of plans) {
        if (!Object.hasOwn(inputs, plan.name)) {
          if (!plan.hasDefault && plan.nonNull) return false;
          continue;
        }
        const value = inputs[plan.name];
        // `undefined` (no JSON body carries it) is left to graphql-js too.
        if (value === undefined || (value === null && plan.nonNull)) return false;
        let refused = false;
        coerceInputValue(value, plan.type, () => {
          refused = true;
        });
        if (refused) return false;
      }
      return true;
    };
  }
}
