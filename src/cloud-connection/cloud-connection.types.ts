import { GraphQLDateTime } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import { CloudProviderKind } from './cloud-connection.enums.js';
import './cloud-connection.graphql-enums.js';

@InputType({ description: 'The cloud to connect the live environment to (tested before it is saved)' })
export class ConnectCloudInput {
  @Field(() => CloudProviderKind)
  provider!: CloudProviderKind;

  @Field(() => String, {
    nullable: true,
    description: 'microsoft365: the partner tenant id (GUID) or its initial domain (contoso.onmicrosoft.com)',
  })
  partnerTenantId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'microsoft365: the multi-tenant app registration (GUID)',
  })
  clientId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'microsoft365: a client secret value of the app; stored sealed, never returned',
  })
  clientSecret?: string | null;
}

@ObjectType({ description: 'One area of the product and whether the connected cloud offers an API for it' })
export class CloudCapability {
  @Field()
  capability!: string;

  @Field({ description: 'false: the live environment answers 501 NOT_SUPPORTED for it' })
  available!: boolean;

  @Field({ description: 'The cloud requests the area makes, or where the cloud manages it instead' })
  api!: string;

  @Field(() => [String], { description: 'Application permissions it needs' })
  permissions!: string[];

  @Field(() => [String], { description: 'Of those, the ones the last test did not find granted' })
  missingPermissions!: string[];

  @Field(() => String, { nullable: true })
  reason!: string | null;
}

@ObjectType({ description: 'The latest test of a cloud connection' })
export class CloudConnectionTest {
  @Field()
  succeeded!: boolean;

  @Field(() => GraphQLDateTime)
  at!: Date;

  @Field(() => String, { nullable: true, description: 'What failed, when it did' })
  message!: string | null;
}

@ObjectType('CloudConnection', {
  description: "The live environment's cloud connection; its client secret is never returned",
})
export class CloudConnectionView {
  @Field()
  connected!: boolean;

  @Field(() => CloudProviderKind, { nullable: true })
  provider!: CloudProviderKind | null;

  @Field(() => String, { nullable: true })
  partnerTenantId!: string | null;

  @Field(() => String, { nullable: true })
  clientId!: string | null;

  @Field({ description: 'Whether a client secret is stored (it is never shown)' })
  clientSecretSet!: boolean;

  @Field({
    description:
      'Whether the live environment acts through this connection: true once saved (Microsoft 365: tenants, ' +
      'users and the other available capabilities go through Graph, docs/microsoft365.md)',
  })
  providerActive!: boolean;

  @Field(() => CloudConnectionTest, { nullable: true })
  lastTest!: CloudConnectionTest | null;

  @Field(() => [String], {
    description: "Application permissions found in the partner tenant's token (its roles claim)",
  })
  grantedPermissions!: string[];

  @Field(() => String, {
    nullable: true,
    description:
      "Microsoft 365: the admin-consent URL to send a customer's administrator, with {customerTenantId} to fill in",
  })
  adminConsentUrl!: string | null;

  @Field(() => [CloudCapability], { description: 'What is and is not available with this provider' })
  capabilities!: CloudCapability[];

  @Field(() => GraphQLDateTime, { nullable: true })
  connectedAt!: Date | null;
}
