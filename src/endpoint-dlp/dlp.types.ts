import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
import { EndpointDlpAlert, EndpointDlpPolicy } from './dlp.entity.js';
import { DlpActionTaken, DlpActivity, DlpPolicyAction } from './dlp.enums.js';
import './dlp.graphql-enums.js';

export const EndpointDlpPolicyPage = PageOf(EndpointDlpPolicy, 'EndpointDlpPolicy');
export const EndpointDlpAlertPage = PageOf(EndpointDlpAlert, 'EndpointDlpAlert');

@InputType({ description: 'Endpoint DLP policy filters' })
export class DlpPolicyFilter {
  @Field(() => [DlpPolicyAction], { nullable: true })
  action?: DlpPolicyAction[] | null;

  @Field(() => [DlpActivity], { nullable: true, description: 'Policies monitoring any of these activities' })
  activity?: DlpActivity[] | null;

  @Field(() => String, { nullable: true, description: 'Part of the policy name' })
  search?: string | null;
}

@InputType({ description: 'Endpoint DLP alert filters; each list matches any of its values' })
export class DlpAlertFilter {
  @Field(() => [GraphQLUUID], { nullable: true })
  policyId?: string[] | null;

  @Field(() => [DlpActivity], { nullable: true })
  activity?: DlpActivity[] | null;

  @Field(() => [DlpActionTaken], { nullable: true })
  actionTaken?: DlpActionTaken[] | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Occurred at or after' })
  from?: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Occurred before' })
  to?: Date | null;
}
