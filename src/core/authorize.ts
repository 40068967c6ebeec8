import { createMethodMiddlewareDecorator, Extensions } from 'type-graphql';
import type { Requirement } from './permissions.js';
import { assertRequirement } from './viewer.js';
import type { RequestContext } from './request-context.js';

/** Where a field's requirement is kept in the schema (`field.extensions`), for checks made before execution. */
export const REQUIREMENT_EXTENSION = 'requires';
/** Where a field's argument-dependent requirements are kept (`field.extensions`): `ArgumentRequirement[]`. */
export const ARGUMENT_REQUIREMENTS_EXTENSION = 'requiresWhen';

/**
 * A stricter requirement that one argument brings when it is `true`: `{ argument: 'input.deleteUser',
 * requires: FEATURES.identity.admin }`. The argument is named by its path among the field's arguments (the
 * argument, then fields of its input object), so a check made before execution can read it from the
 * document and the variables, and the field's own check from its arguments.
 */
export interface ArgumentRequirement {
  readonly argument: string;
  readonly requires: Requirement;
}

export interface RequirementOptions {
  /** Stricter requirements of some arguments' values (an option that deletes, ...); none by default. */
  readonly when?: readonly ArgumentRequirement[];
}

/** The value at a dotted path (`input.deleteUser`) of a field's arguments; undefined where it is absent. */
export function argumentValue(args: unknown, path: string): unknown {
  let value = args;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * THE way a query or mutation says what it needs: a row of the permission table
 * (`@RequirePermission(FEATURES.identity.write)`), plus, for an argument that makes the action stricter, the
 * row that argument needs (`{ when: [{ argument: 'input.deleteUser', requires: FEATURES.identity.admin }] }`).
 * One decorator for every resolver, so the REST routes (which execute these same fields) inherit exactly the
 * same checks; both are also recorded in the field's extensions, so the REST adapter and the GraphQL pipeline
 * refuse before validating input (src/http/operation-requirements.ts). The check runs once per request: where
 * that pre-check ran (`RequestContext.preAuthorized`) the field does not repeat it; where none ran (a
 * subscription, graphql-js called directly) the field checks itself. No resolver checks a permission inline
 * (docs/security-model.md).
 */
export function RequirePermission(
  requirement: Requirement,
  options: RequirementOptions = {},
): MethodDecorator {
  const when = options.when ?? [];
  const check = createMethodMiddlewareDecorator<RequestContext>(async ({ args, context, info }, next) => {
    // A root field the request's pre-check already cleared (permission before validation) is not checked twice.
    const checkedBefore = info.path.prev === undefined && context.preAuthorized?.has(info.fieldName) === true;
    if (!checkedBefore) {
      assertRequirement(context.viewer, requirement);
      for (const stricter of when)
        if (argumentValue(args, stricter.argument) === true)
          assertRequirement(context.viewer, stricter.requires);
    }
    return next();
  });
  const record = Extensions({
    [REQUIREMENT_EXTENSION]: requirement,
    ...(when.length > 0 ? { [ARGUMENT_REQUIREMENTS_EXTENSION]: when } : {}),
  });
  return (prototype, propertyKey, descriptor) => {
    check(prototype, propertyKey, descriptor);
    record(prototype, propertyKey, descriptor);
  };
}
