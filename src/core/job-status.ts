/** The status of every job-backed operation (tenant sync, and the areas that adopt core/tracked-job.ts). */
export enum JobStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  COMPLETED = 'Completed',
  FAILED = 'Failed',
  CANCELLED = 'Cancelled',
}

export const FINISHED_JOB_STATUSES: readonly JobStatus[] = [
  JobStatus.COMPLETED,
  JobStatus.FAILED,
  JobStatus.CANCELLED,
];
