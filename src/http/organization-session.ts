import type { NextFunction, Request, Response } from 'express';
import { runInOrganizationSession } from '../core/db-session.js';

/**
 * Runs the rest of an API request in its organization's database session (row-level security,
 * core/db-session.ts). Placed after the JSON body parser: the parser resumes from the socket's stream
 * events, which would not carry a session entered before it.
 */
export function organizationSession(req: Request, _res: Response, next: NextFunction): void {
  const viewer = req.viewer;
  // The landing page passes the GraphQL guard without a viewer and executes nothing.
  if (!viewer) return next();
  runInOrganizationSession({ organizationId: viewer.organizationId, environment: viewer.environment }, next);
}
