import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';

export const MAX_GROUP_NAME_LENGTH = 100;
export const MAX_GROUP_DESCRIPTION_LENGTH = 500;
/** Tenants named by one create or members call (a request names them all at once). */
export const MAX_TENANTS_PER_CALL = 1000;

@ObjectType('TenantGroup', {
  description: 'A named set of the organization’s tenants (docs/tenant-groups.md)',
})
export class TenantGroupView {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => [ID], { description: 'The member tenants, by id (ascending)' })
  tenantIds!: string[];

  @Field(() => Int)
  tenantCount!: number;

  @Field(() => GraphQLDateTime)
  createdAt!: Date;

  @Field(() => GraphQLDateTime)
  updatedAt!: Date;
}

export const TenantGroupPage = PageOf(TenantGroupView, 'TenantGroup');

@InputType({
  description: 'A new tenant group: a name unique in the organization, optionally its first members',
})
export class CreateTenantGroupInput {
  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [GraphQLUUID], { nullable: true })
  tenantIds?: string[] | null;
}

@InputType({ description: 'Renames or re-describes a group; fields left out stay as they are' })
export class UpdateTenantGroupInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
}
