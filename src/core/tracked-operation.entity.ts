import { Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { ScopedEntity } from './scope.js';

/**
 * The bookkeeping every job-backed operation's row carries for core/tracked-job.ts: how many runs started
 * and did not end (a crash loop is given up after TRACKED_JOB_MAX_RUNS) and where a resumed run continues.
 * Not part of the API: the status, progress and reason columns of each kind are.
 */
// Named only so type-graphql passes the fields on; no field returns it, so it is not in the schema.
@ObjectType('TrackedOperationRecord')
export abstract class TrackedOperation extends ScopedEntity {
  /** Runs started and not ended: more than one means a worker died and the operation resumed. */
  @Property({ type: 'integer', default: 0 })
  runAttempts: number = 0;

  /** Where a resumed run continues (next to the per-item state on the operation's own rows). */
  @Property({ type: 'jsonb', nullable: true })
  checkpoint: Record<string, unknown> | null = null;

  /**
   * The fencing token of the run that owns the operation now (core/tracked-job.ts): each run takes a new
   * one when it starts, and every write of the operation or its items checks it, so a stale run (a worker
   * frozen long enough for another to take the job over) changes nothing and stops.
   */
  @Property({ type: 'uuid', nullable: true })
  runToken: string | null = null;
}

/**
 * The shape shared by operations a person requests and then follows (user import, offboarding): who asked
 * and when, when it ran, and why it failed as a whole. Their status enums differ, so status stays theirs.
 */
@ObjectType('RequestedOperationRecord')
export abstract class RequestedOperation extends TrackedOperation {
  @Field(() => String, { nullable: true, description: 'Why the whole operation failed' })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  /** A principal string. Each kind exposes it as an Actor in its own resolver (core knows no feature types). */
  @Property()
  createdBy!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;
}
