import type { TenantCloud } from '../cloud/tenant-cloud.js';
import type { EventTenant } from '../core/events/record-event.js';
import type { ServiceContext } from '../core/service-context.js';

/** What a sync changed, by kind (e.g. usersCreated: 12); all zeros when nothing changed upstream. */
export type SyncCounts = Record<string, number>;

/** The tenant a sync brings in line with the cloud, as its steps see it (the tenants feature's row). */
export interface SyncTenant {
  readonly id: string;
  /** The tenant's id in the upstream cloud. */
  readonly externalId: string;
  /** When the previous sync ended (null before the first): a step reading changes reads those since. */
  readonly lastSyncedAt: Date | null;
  /** The tenant as events carry it. */
  readonly eventRef: EventTenant;
}

/** What a step's read is given: the tenant's cloud client, and the tenant as it was before this sync. */
export interface SyncReadContext {
  readonly cloud: TenantCloud;
  readonly tenant: SyncTenant;
  /**
   * For reading what the step stored at the last sync (where its cloud reads resume: the users' deltaLink);
   * outside the sync's transaction, so nothing is to be written with it.
   */
  readonly ctx: ServiceContext;
}

/** What a step's write is given. */
export interface SyncWriteContext {
  /** The sync's transaction (`ctx.em`, shared by every step), scope, clock and actor. */
  readonly ctx: ServiceContext;
  readonly tenant: SyncTenant;
  /** The sync's time: one instant for every row it stamps. */
  readonly now: Date;
  /** How far the step got, from 0 to 1 (a long step may tell; its end is reported for it). */
  progress(fraction: number): Promise<void>;
  /**
   * Records a readable note of something the step left out rather than fail the sync (an upstream record that
   * conflicts with another): shown with the sync's result. Never raw constraint text or key values.
   */
  warn(message: string): void;
}

/** A step's writes, prepared by its read from what it read: they run inside the sync's transaction. */
export type SyncWrite = (write: SyncWriteContext) => Promise<SyncCounts>;

/**
 * One area of a tenant that a sync brings in line with the cloud (a feature's `syncStep`: users and groups,
 * licenses, devices, contacts...), with the feature's own mapping between the cloud's records and its rows.
 *
 * A sync first runs every step's `read` together, before anything is written (a read failing stops the sync
 * before its transaction); then, in one transaction, each step's write in turn, in the order of
 * `syncStepsOf` (sync-steps.ts). Each step returns its own counts; the first write that throws stops the sync,
 * and everything is rolled back.
 */
export interface SyncStep {
  /** Names the step in results and in other steps' `after`: the feature's name. */
  readonly name: string;
  /** Steps whose rows this one refers to (e.g. licenses refer to users): their writes run before its. */
  readonly after?: readonly string[];
  /**
   * Its share of the sync's progress, relative to the other steps' (default 0: a step of a few statements,
   * whose time does not show; the steps that write row by row weigh).
   */
  readonly weight?: number;
  /**
   * Whether its counts are part of the sync's summary (the `summary` of a tenant sync and the details of
   * `tenant.synced`); default true. Its result carries them either way.
   */
  readonly inSummary?: boolean;
  /** Reads this step's part of the tenant from the cloud; returns the writes that apply it. */
  read(source: SyncReadContext): Promise<SyncWrite>;
}

/**
 * One step's outcome: `completed` with its counts (its writes commit with the sync, or are rolled back with
 * it when a later step fails), `failed` with its error (thrown by its read or its write), `skipped`: the
 * sync stopped before its write (another step failed), or `unavailable`: the connected cloud has no API for
 * the area, so the step is noted (a warning "<step>: not available on <provider>") and the sync goes on.
 */
export type SyncStepResult =
  | { readonly step: string; readonly status: 'completed'; readonly counts: SyncCounts }
  | { readonly step: string; readonly status: 'failed'; readonly error: unknown }
  | { readonly step: string; readonly status: 'skipped' }
  /** The provider has no API for the step's area (CloudError Unsupported): nothing read or written. */
  | { readonly step: string; readonly status: 'unavailable'; readonly reason: string };

export type FailedSyncStep = Extract<SyncStepResult, { status: 'failed' }>;

/** What a sync's steps did: each step's result in the order they ran, and their summary. */
export interface SyncRunResult {
  readonly steps: readonly SyncStepResult[];
  /** The counts of the completed steps that are part of the summary, merged in step order. */
  readonly summary: SyncCounts;
  /** The step that failed, if one did (the sync then committed nothing). */
  readonly failed: FailedSyncStep | null;
  /** The steps' notes of what they left out (SyncWriteContext.warn). */
  readonly warnings: readonly string[];
}
