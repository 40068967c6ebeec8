import { createMethodMiddlewareDecorator } from 'type-graphql';
import type { Permission } from './permissions.js';
import { assertPermission, type PermissionRequirement } from './viewer.js';
import type { RequestContext } from '../context.js';

/**
 * Marks a query or mutation with the permission it needs. One decorator for every resolver,
 * so the REST routes (which execute these same fields) inherit exactly the same checks.
 */
export function RequirePermission(permission: Permission, requirement: PermissionRequirement = {}) {
  return createMethodMiddlewareDecorator<RequestContext>(async ({ context }, next) => {
    assertPermission(context.viewer, permission, requirement);
    return next();
  });
}
