import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { PageOf } from '../core/pagination.js';
import { UserType } from './user.enums.js';
import './user.graphql-enums.js';

/** SPEC 8.3: a deleted user can be restored for 30 days, then it is permanently deleted. */
export const RECOVERY_WINDOW_DAYS = 30;

/** A soft-deleted user in its tenant's recycle bin (SPEC 2.6 "Deleted user", 3.4). */
@ObjectType({ description: "A soft-deleted user in its tenant's recycle bin (SPEC 3.4)" })
export class DeletedUser {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field()
  displayName!: string;

  @Field({ description: 'The sign-in address it had; it may have been taken by another user since' })
  userPrincipalName!: string;

  @Field(() => UserType)
  userType!: UserType;

  @Field(() => GraphQLDateTime)
  deletedAt!: Date;

  @Field(() => Actor, {
    nullable: true,
    description: 'Who deleted it: an API key, a member, or the tenant sync (deleted in the cloud)',
  })
  deletedBy!: string | null;

  @Field(() => Int, {
    description: `Whole days left to restore it (rounded up, 0 when the ${RECOVERY_WINDOW_DAYS}-day window has ended)`,
  })
  daysRemaining!: number;

  @Field(() => GraphQLDateTime, {
    description: `When the ${RECOVERY_WINDOW_DAYS}-day recovery window ends and the user is permanently deleted`,
  })
  permanentDeletionAt!: Date;

  @Field({ description: 'Whether it held licenses when deleted; a restore does not give them back' })
  hadLicenses!: boolean;
}

export const DeletedUserPage = PageOf(DeletedUser, 'DeletedUser');

/** What remains of a permanently deleted user: enough to say which one it was. */
@ObjectType({ description: 'A user permanently deleted (irreversible)' })
export class PurgedUser {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field()
  displayName!: string;

  @Field()
  userPrincipalName!: string;

  @Field(() => GraphQLDateTime)
  deletedAt!: Date;

  @Field(() => GraphQLDateTime)
  purgedAt!: Date;
}
