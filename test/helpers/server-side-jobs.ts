/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files about the app's scheduled work: the cron
 * items the job runner schedules and the housekeeping job's run, made with the server's modules (src/tasks.ts
 * loads every feature) and its ORM and clock.
 */
import type { CronItem } from 'graphile-worker';
import { completeBarrierApplications as completeApplications } from '../../src/info-barriers/barrier-application.task.js';
import {
  RETENTION,
  runHousekeeping as runHousekeepingJob,
  type HousekeepingResult,
} from '../../src/housekeeping/housekeeping.task.js';
import { cronItems as CRON_ITEMS } from '../../src/tasks.js';
import type { TestApp } from './test-app.js';

/** Every feature's cron items, as the job runner schedules them (src/tasks.ts). */
async function cronItems(): Promise<CronItem[]> {
  return CRON_ITEMS;
}

/** The housekeeping job's retention periods (src/housekeeping/housekeeping.task.ts). */
async function housekeepingRetention(): Promise<typeof RETENTION> {
  return RETENTION;
}

/** One run of the housekeeping job, over every organization of the server's database, on its clock. */
function runHousekeeping(app: TestApp): Promise<HousekeepingResult> {
  return runHousekeepingJob(app.orm, app.clock);
}

/**
 * One run of the information barriers' progress cron: completes the applications of every organization whose
 * time has come on the server's clock.
 */
async function completeBarrierApplications(app: TestApp): Promise<void> {
  await completeApplications(app.orm, app.deps);
}

export const SERVER_SIDE_JOBS = {
  cronItems,
  housekeepingRetention,
  runHousekeeping,
  completeBarrierApplications,
};
