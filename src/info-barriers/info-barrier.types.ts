import { GraphQLUUID } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
import { BarrierPolicy, BarrierSegment } from './info-barrier.entity.js';
import { BarrierPolicyType, SegmentAttribute } from './info-barrier.enums.js';
import './info-barrier.graphql-enums.js';

export const BarrierSegmentPage = PageOf(BarrierSegment, 'BarrierSegment');
export const BarrierPolicyPage = PageOf(BarrierPolicy, 'BarrierPolicy');

@InputType({ description: 'A segment: the users whose attribute equals the value' })
export class CreateSegmentInput {
  @Field()
  name!: string;

  @Field(() => SegmentAttribute)
  attribute!: SegmentAttribute;

  @Field({ description: 'Compared trimmed and case-insensitively; for memberOf, a group name or id' })
  value!: string;
}

@InputType({ description: 'A barrier policy between a source segment and target segments' })
export class CreateBarrierPolicyInput {
  @Field()
  name!: string;

  @Field(() => BarrierPolicyType)
  type!: BarrierPolicyType;

  @Field(() => GraphQLUUID)
  sourceSegmentId!: string;

  @Field(() => [GraphQLUUID])
  targetSegmentIds!: string[];
}
