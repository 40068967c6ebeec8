import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, InputType, ObjectType } from 'type-graphql';
import { PageArgs } from '../core/pagination.js';

/** The body of assign and remove (DECISIONS): which user, which SKU (the product id, `skuId`). */
@InputType({ description: 'A user and a license SKU of the same tenant' })
export class LicenseAssignmentInput {
  @Field(() => GraphQLUUID, { description: 'The user (our id, as in User.id)' })
  userId!: string;

  @Field(() => GraphQLUUID, { description: 'The SKU (License.skuId)' })
  skuId!: string;
}

@ArgsType()
export class LicenseAssignmentListArgs extends PageArgs {
  @Field(() => GraphQLUUID, { nullable: true, description: 'Only the assignments of this user' })
  userId?: string | null;

  @Field(() => GraphQLUUID, { nullable: true, description: 'Only the assignments of this SKU' })
  skuId?: string | null;
}

/**
 * The outcome of a removal. Removing is idempotent: a license the user does not hold answers
 * `removed: false` (and changes nothing), so a client may safely retry.
 */
@ObjectType({ description: 'The outcome of removing a license from a user' })
export class LicenseRemoval {
  @Field(() => GraphQLUUID)
  userId!: string;

  @Field(() => GraphQLUUID)
  skuId!: string;

  @Field({ description: 'false when the user did not hold the license (nothing changed)' })
  removed!: boolean;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'When the license was removed; null if not held',
  })
  removedAt!: Date | null;
}
