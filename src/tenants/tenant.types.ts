import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType({
  description: 'An area of the cloud that a permission missing from the customer consent disables',
})
export class TenantDisabledCapability {
  @Field({ description: "The area, as the cloud connection's capabilities name it" })
  capability!: string;

  @Field(() => [String], { description: 'The permissions it needs that the consent lacks' })
  missingPermissions!: string[];
}

@ObjectType({
  description:
    "What the customer tenant's consent grants the organization's app: read from the cloud at onboarding and at each sync",
})
export class TenantCloudPermissions {
  @Field(() => GraphQLDateTime, { description: 'When the cloud was last asked' })
  checkedAt!: Date;

  @Field(() => [String], { description: 'Application permissions granted (the tokens’ roles claims)' })
  grantedPermissions!: string[];

  @Field(() => [String], { description: 'Permissions the app asks for that the consent lacks' })
  missingPermissions!: string[];

  @Field(() => [TenantDisabledCapability], { description: 'The areas those missing permissions disable' })
  disabledCapabilities!: TenantDisabledCapability[];
}

/** How a tenant row keeps the last answer (`tenants.cloud_permissions`, jsonb). */
export interface StoredCloudPermissions {
  checkedAt: string;
  granted: string[];
  missing: string[];
  disabledCapabilities: Array<{ capability: string; missingPermissions: string[] }>;
}
