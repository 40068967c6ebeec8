import { Extensions } from 'type-graphql';
import { argumentValue } from './authorize.js';

/**
 * Job-starting mutations (issue #32 item 4): 30 aliased `importUsers` or `startRestore` in one request queued
 * 30 jobs for one rate point. A mutation that queues a job says so with `@StartsJob`, recorded in the
 * schema (`field.extensions.startsJob`), and the query limits (src/http/query-limits.ts) then
 *
 * - refuse a document with more than one such field (400 naming the `jobFields` limit);
 * - cost it by its work: one rate point for the job, plus `perUnit` for each unit of work its arguments
 *   name (the rows of a CSV, the items of a restore, the tenants of an apply).
 *
 * The jobs an organization-environment has in flight are capped as they are queued (src/core/job-limits.ts).
 */
export const STARTS_JOB_EXTENSION = 'startsJob';

export interface JobWork {
  /** The argument whose size is the work: a list (its items) or a CSV text (its lines after the header). */
  readonly units?: string;
  /** Units when that argument is absent or null ("every open tenant"). */
  readonly unitsWhenAbsent?: number;
  /** Cost per unit, in the query cost's terms (3,000 = one rate point). */
  readonly perUnit?: number;
}

/** Marks a mutation that queues a job, with what its work is measured by. */
export function StartsJob(work: JobWork = {}): MethodDecorator {
  return Extensions({ [STARTS_JOB_EXTENSION]: work });
}

/** The units of work the arguments of a job-starting field name. */
export function jobUnitsOf(work: JobWork, args: unknown): number {
  if (!work.units) return 0;
  const value = argumentValue(args, work.units);
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'string')
    return Math.max(0, value.split('\n').filter((line) => line.trim()).length - 1);
  return work.unitsWhenAbsent ?? 0;
}
