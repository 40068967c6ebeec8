import { execute, subscribe, type ExecutionArgs } from 'graphql';
import { iterateInOrganizationSession, runInOrganizationSession } from '../core/db-session.js';
import type { ServiceContext } from '../core/service-context.js';

/**
 * graphql-ws's execute/subscribe, run in the operation's organization database session (row-level
 * security, core/db-session.ts) like an HTTP request; an event stream's later steps too.
 */
export const executeInSession = (args: ExecutionArgs) =>
  runInOrganizationSession(scopeOf(args), () => execute(args));

export async function subscribeInSession(args: ExecutionArgs) {
  const scope = scopeOf(args);
  const result = await runInOrganizationSession(scope, () => subscribe(args));
  if (!(Symbol.asyncIterator in result)) return result;
  return iterateInOrganizationSession(scope, result[Symbol.asyncIterator]());
}

function scopeOf(args: ExecutionArgs): ServiceContext['scope'] {
  return (args.contextValue as ServiceContext).scope;
}
