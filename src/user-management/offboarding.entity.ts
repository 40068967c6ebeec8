import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { RequestedOperation } from '../core/tracked-operation.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

export enum OffboardingStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  COMPLETED = 'Completed',
  FAILED = 'Failed',
}
registerEnumType(OffboardingStatus, {
  name: 'OffboardingStatus',
  description: 'Queued → Running → Completed | Failed; a Failed offboarding can be retried (→ Queued)',
});

export enum OffboardingStepName {
  BLOCK_SIGN_IN = 'blockSignIn',
  REVOKE_SESSIONS = 'revokeSessions',
  CONVERT_MAILBOX = 'convertMailbox',
  SET_AUTO_REPLY = 'setAutoReply',
  TRANSFER_FILES = 'transferFiles',
  REMOVE_GROUPS = 'removeGroups',
  REMOVE_LICENSES = 'removeLicenses',
  DELETE_USER = 'deleteUser',
}
registerEnumType(OffboardingStepName, { name: 'OffboardingStepName' });

export enum OffboardingStepStatus {
  PENDING = 'Pending',
  RUNNING = 'Running',
  /** The cloud throttled or failed for a while: the job tries the step again at `retryAt`. */
  WAITING = 'Waiting',
  SUCCEEDED = 'Succeeded',
  FAILED = 'Failed',
  SKIPPED = 'Skipped',
}
registerEnumType(OffboardingStepStatus, {
  name: 'OffboardingStepStatus',
  description:
    'Pending → Running → Succeeded | Failed | Waiting (the cloud throttled: tried again at retryAt) | Skipped',
});

/** What the caller asked for (issue #14 item 5), with the people resolved to our user ids. */
export interface OffboardingOptions {
  convertMailboxToShared: boolean;
  delegateMailboxToUserId: string | null;
  autoReplyMessage: string | null;
  /** 'manager', a user id, or null (files stay where they are). */
  transferFilesTo: string | null;
  removeLicenses: boolean;
  removeFromGroups: boolean;
  deleteUser: boolean;
}

@ObjectType({ description: 'One recorded step of an offboarding' })
export class OffboardingStep {
  @Field(() => OffboardingStepName)
  name!: OffboardingStepName;

  @Field(() => OffboardingStepStatus)
  status!: OffboardingStepStatus;

  @Field(() => GraphQLDateTime, { nullable: true })
  startedAt!: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed' })
  error!: string | null;

  @Field(() => String, { nullable: true, description: 'What the step did (e.g. "2 licenses removed")' })
  result!: string | null;

  @Field({ description: 'How many times the step was started' })
  attempts!: number;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description:
      "While Waiting: when the job tries the step again (the cloud's Retry-After, or the queue's backoff if longer)",
  })
  retryAt!: Date | null;
}

/** The stored form of a step (dates as ISO strings in jsonb). */
export interface StoredStep {
  name: OffboardingStepName;
  status: OffboardingStepStatus;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  result: string | null;
  attempts: number;
  /** While Waiting (absent in steps recorded before it existed). */
  retryAt?: string | null;
}

/** An offboarding of one user: ordered steps run by the user-offboarding job. */
@ObjectType({ description: 'An offboarding workflow of a user and its recorded steps' })
@Entity({ tableName: 'user_offboardings' })
@Index({ properties: ['organizationId', 'environment', 'userId', 'createdAt'] })
// At most one unfinished offboarding per user: a second one while one is queued or running is 409.
@Index({
  name: 'user_offboardings_one_active',
  expression:
    'create unique index "user_offboardings_one_active" on "user_offboardings" ("user_id") where "status" in (\'Queued\', \'Running\')',
})
export class UserOffboarding extends RequestedOperation {
  [OptionalProps]?: 'status' | 'failureReason' | 'startedAt' | 'finishedAt' | 'runAttempts' | 'checkpoint';

  @Field(() => ID)
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'user_offboardings_tenant_id_index' })
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => ID)
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId!: string;

  @Field(() => OffboardingStatus)
  @Enum({ items: () => OffboardingStatus })
  status: OffboardingStatus = OffboardingStatus.QUEUED;

  @Property({ type: 'jsonb' })
  options!: OffboardingOptions;

  @Property({ type: 'jsonb' })
  steps!: StoredStep[];
}
