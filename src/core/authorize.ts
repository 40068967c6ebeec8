import { createMethodMiddlewareDecorator, Extensions } from 'type-graphql';
import { Permission, type Requirement } from './permissions.js';
import { assertPermission, type PermissionRequirement } from './viewer.js';
import type { RequestContext } from '../context.js';

/** Where a field's requirement is kept in the schema (`field.extensions`), for checks made before execution. */
export const REQUIREMENT_EXTENSION = 'requires';

/**
 * Marks a query or mutation with what it needs, preferably a row of the permission table
 * (`@RequirePermission(FEATURES.identity.write)`). One decorator for every resolver, so the REST routes
 * (which execute these same fields) inherit exactly the same checks; the requirement is also recorded in
 * the field's extensions, so the REST adapter and the GraphQL pipeline can refuse before validating input.
 */
export function RequirePermission(
  required: Requirement | Permission,
  legacy: PermissionRequirement = {},
): MethodDecorator {
  const requirement: Requirement =
    typeof required === 'string' ? { permission: required, ...legacy } : required;
  const check = createMethodMiddlewareDecorator<RequestContext>(async ({ context }, next) => {
    assertPermission(context.viewer, requirement.permission, requirement);
    return next();
  });
  const record = Extensions({ [REQUIREMENT_EXTENSION]: requirement });
  return (prototype, propertyKey, descriptor) => {
    check(prototype, propertyKey, descriptor);
    record(prototype, propertyKey, descriptor);
  };
}
