import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { TenantHealth, TenantStatus } from './tenant.enums.js';
import { TenantCloudPermissions, type StoredCloudPermissions } from './tenant.types.js';

/** The constraint that keeps an upstream tenant in one environment of one organization. */
export const UPSTREAM_TENANT_UNIQUE = 'tenants_external_id_unique';

export { TenantHealth, TenantStatus };
registerEnumType(TenantStatus, { name: 'TenantStatus' });
registerEnumType(TenantHealth, {
  name: 'TenantHealth',
  description: 'Portal health, computed by the rules in docs/tenant-health.md',
});

@ObjectType({ description: 'The password rules of a tenant; new and reset passwords must meet them' })
export class PasswordPolicy {
  @Field(() => Int)
  minLength!: number;

  @Field({ description: 'At least three of: lower case, upper case, digit, symbol' })
  requireComplexity!: boolean;
}

/** A customer tenant of the upstream productivity cloud, administered by one organization. */
@ObjectType({ description: 'A customer tenant administered by the organization' })
@Entity({ tableName: 'tenants' })
@Unique({ properties: ['organizationId', 'environment', 'domain'] })
// An upstream tenant belongs to one environment of one organization (src/tenants/upstream-tenant-owner.ts).
@Unique({ name: UPSTREAM_TENANT_UNIQUE, properties: ['externalId'] })
@Index({ properties: ['organizationId', 'environment', 'createdAt', 'id'] })
// The secure score list, by tenant name (issue #11: the page stops after offset + limit).
@Index({ name: 'tenants_name_index', properties: ['organizationId', 'environment', 'name', 'id'] })
export class Tenant extends ScopedEntity {
  [OptionalProps]?:
    | 'createdAt'
    | 'status'
    | 'lastSyncedAt'
    | 'passwordMinLength'
    | 'passwordRequireComplexity'
    | 'cloudPermissionsRead';

  @Field()
  @Property()
  name!: string;

  @Field({ description: 'Primary (default) domain' })
  @Property()
  domain!: string;

  @Field(() => [String], { description: 'Every verified domain; user principal names must use one of them' })
  @Property({ type: 'text[]' })
  domains!: string[];

  /** The tenant's id in the upstream cloud. */
  @Property()
  externalId!: string;

  @Field(() => TenantStatus)
  @Enum({ items: () => TenantStatus })
  status: TenantStatus = TenantStatus.ACTIVE;

  @Property({ type: 'integer' })
  passwordMinLength: number = 12;

  @Property({ type: 'boolean' })
  passwordRequireComplexity: boolean = true;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastSyncedAt: Date | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  /**
   * What the customer's consent granted at the last check (onboarding, each sync: tenant-consent.ts); null
   * where the cloud has no per-permission consent (the simulated cloud) or before the first answer.
   */
  @Property({ type: 'jsonb', nullable: true, fieldName: 'cloud_permissions' })
  cloudPermissionsRead: StoredCloudPermissions | null = null;

  constructor(
    scope: Scope,
    fields: { name: string; domain: string; domains?: string[]; externalId: string },
  ) {
    super();
    this.assignScope(scope);
    this.name = fields.name;
    this.domain = fields.domain.toLowerCase();
    this.domains = [...new Set([this.domain, ...(fields.domains ?? []).map((d) => d.toLowerCase())])];
    this.externalId = fields.externalId;
  }

  /** The tenant as events carry it (SPEC 6: id, name, domain). */
  get eventRef(): { id: string; name: string; domain: string } {
    return { id: this.id, name: this.name, domain: this.domain };
  }

  @Field(() => TenantCloudPermissions, {
    nullable: true,
    description:
      "Microsoft 365: the permissions the customer's consent lacks and the areas that disables in this tenant; null in the sandbox",
  })
  get cloudPermissions(): TenantCloudPermissions | null {
    const read = this.cloudPermissionsRead;
    if (!read) return null;
    return {
      checkedAt: new Date(read.checkedAt),
      grantedPermissions: read.granted,
      missingPermissions: read.missing,
      disabledCapabilities: read.disabledCapabilities,
    };
  }

  @Field(() => PasswordPolicy)
  get passwordPolicy(): PasswordPolicy {
    return { minLength: this.passwordMinLength, requireComplexity: this.passwordRequireComplexity };
  }
}
