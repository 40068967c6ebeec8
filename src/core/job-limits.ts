import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from './errors.js';
import type { Scope } from './scope.js';

/**
 * Jobs one organization-environment may have in flight at once (queued, running, or waiting for a retry):
 * a request that would queue one more is refused with 429 RATE_LIMITED naming the limit, before anything
 * is written (the refusal rolls back the request's transaction). Jobs queued by jobs themselves (a device
 * action's poll) and by the CLI are not counted against it. docs/api.md "Jobs".
 */
export const MAX_JOBS_IN_FLIGHT = 20;

/** How long a refused caller is told to wait: about one job's run. */
const RETRY_AFTER_SECONDS = 30;

export class JobLimitError extends AppError {
  constructor(inFlight: number) {
    super(
      'RATE_LIMITED',
      `Your organization already has ${inFlight} jobs in flight in this environment, the most it may have ` +
        `(jobsInFlight limit ${MAX_JOBS_IN_FLIGHT}); retry when some have finished`,
      {
        limit: 'jobsInFlight',
        maximum: MAX_JOBS_IN_FLIGHT,
        inFlight,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      },
    );
  }
}

/** Refuses (JobLimitError) when the scope already has MAX_JOBS_IN_FLIGHT jobs in flight. */
export async function assertRoomForJob(em: EntityManager, scope: Scope): Promise<void> {
  const [{ count }] = await em.execute<{ count: number }[]>('select jobs_in_flight(?, ?) as count', [
    scope.organizationId,
    scope.environment,
  ]);
  if (count >= MAX_JOBS_IN_FLIGHT) throw new JobLimitError(count);
}
