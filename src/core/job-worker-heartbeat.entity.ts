import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * Liveness of the job queue's workers across processes (see jobs.ts): every running worker refreshes its
 * row every few seconds. graphile-worker itself releases a dead worker's jobs only after 4 hours; with these
 * rows, the jobs of a process that was killed are released as soon as its heartbeat is stale.
 */
@Entity({ tableName: 'job_worker_heartbeats' })
export class JobWorkerHeartbeat {
  /** graphile-worker's worker id (the `locked_by` of the jobs it runs). */
  @PrimaryKey({ type: 'text' })
  workerId!: string;

  /** Database time of the last heartbeat. */
  @Property({ type: 'timestamptz' })
  seenAt!: Date;
}
