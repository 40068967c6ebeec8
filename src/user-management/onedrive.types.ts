import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';

@ObjectType({ description: 'A file preserved in a deleted user’s personal storage' })
export class DriveItem {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  path!: string;

  @Field(() => Int)
  sizeBytes!: number;

  @Field(() => GraphQLDateTime)
  modifiedAt!: Date;
}
export const DriveItemPage = PageOf(DriveItem, 'DriveItem');

@ObjectType({ description: 'Access given to a user on a deleted user’s personal storage' })
export class DriveAccessGrant {
  @Field(() => ID)
  userId!: string;

  @Field(() => ID)
  grantedTo!: string;

  @Field(() => GraphQLDateTime)
  grantedAt!: Date;

  @Field(() => GraphQLDateTime, {
    description: 'The storage is purged with the user at the end of the window',
  })
  availableUntil!: Date;
}
