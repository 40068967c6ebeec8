import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ScopedEntity } from '../core/scope.js';
import { RequestedOperation } from '../core/tracked-operation.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';

export enum UserImportStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  COMPLETED = 'Completed',
  COMPLETED_WITH_ERRORS = 'CompletedWithErrors',
  FAILED = 'Failed',
}
registerEnumType(UserImportStatus, {
  name: 'UserImportStatus',
  description:
    'Queued → Running → Completed (every row created) | CompletedWithErrors (some rows failed) | Failed (no row created, or the job gave up)',
});

export enum UserImportRowStatus {
  PENDING = 'Pending',
  /** The create was sent; a retried job checks whether it landed before sending it again. */
  CREATING = 'Creating',
  CREATED = 'Created',
  FAILED = 'Failed',
}
registerEnumType(UserImportRowStatus, { name: 'UserImportRowStatus' });

/** A bulk creation of users from a CSV file (issue #14 item 4), run by the user-import job. */
@ObjectType({ description: 'A bulk user creation from CSV and its progress' })
@Entity({ tableName: 'user_imports' })
@Index({ properties: ['organizationId', 'environment', 'tenantId', 'createdAt'] })
export class UserImport extends RequestedOperation {
  [OptionalProps]?:
    | 'status'
    | 'processedRows'
    | 'createdRows'
    | 'failedRows'
    | 'failureReason'
    | 'startedAt'
    | 'finishedAt'
    | 'runAttempts'
    | 'checkpoint'
    | 'passwordsPurgedAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => UserImportStatus)
  @Enum({ items: () => UserImportStatus })
  status: UserImportStatus = UserImportStatus.QUEUED;

  @Field(() => Int)
  @Property({ type: 'integer' })
  totalRows!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  processedRows: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  createdRows: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  failedRows: number = 0;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description:
      'When housekeeping erased the passwords of the rows a Failed import had left (a retention after the failure): it can no longer be retried',
  })
  @Property({ type: 'timestamptz', nullable: true })
  passwordsPurgedAt: Date | null = null;
}

/** One data row of an import file and what became of it. */
@ObjectType({ description: 'One row of a user import' })
@Entity({ tableName: 'user_import_rows' })
@Unique({ properties: ['importId', 'line'] })
export class UserImportRow extends ScopedEntity {
  [OptionalProps]?: 'status' | 'userId' | 'error' | 'password';

  @ManyToOne(() => UserImport, { mapToPk: true, fieldName: 'import_id', deleteRule: 'cascade' })
  importId!: string;

  @Field(() => Int, { description: 'The line of the file (the header is line 1)' })
  @Property({ type: 'integer' })
  line!: number;

  @Field()
  @Property()
  userPrincipalName!: string;

  /** The validated CreateUserInput of the row, without the password. */
  @Property({ type: 'jsonb' })
  input!: Record<string, unknown>;

  /**
   * The row's password until its user is created (then erased): supplied in the file, or generated at
   * submission and shown once in the 202 answer. Never returned by a read of the operation.
   */
  @Property({ type: 'text', nullable: true, lazy: true })
  password: string | null = null;

  @Field(() => UserImportRowStatus)
  @Enum({ items: () => UserImportRowStatus })
  status: UserImportRowStatus = UserImportRowStatus.PENDING;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  userId: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  error: string | null = null;
}
