import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A license SKU a tenant subscribes to. `consumed` is a counter kept in step with the assignments
 * in the same transaction, and only ever raised by a conditional UPDATE (consumed < total),
 * which is what makes concurrent assigns race-safe.
 */
@ObjectType('License', { description: 'A license SKU available to a tenant, with its seats' })
@Entity({ tableName: 'tenant_licenses' })
@Unique({ properties: ['tenantId', 'skuId'] })
@Index({ properties: ['organizationId', 'environment', 'tenantId', 'name', 'id'] })
export class TenantLicense extends ScopedEntity {
  [OptionalProps]?: 'consumed';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => ID, { description: 'The product id, the same in every tenant' })
  @Property({ type: 'uuid' })
  skuId!: string;

  @Field({ description: 'e.g. ENTERPRISEPACK' })
  @Property()
  skuPartNumber!: string;

  @Field()
  @Property()
  name!: string;

  @Field(() => Int, { description: 'Seats purchased' })
  @Property({ type: 'integer' })
  total!: number;

  @Field(() => Int, { description: 'Seats assigned' })
  @Property({ type: 'integer' })
  consumed: number = 0;

  constructor(
    scope: Scope,
    fields: { tenantId: string; skuId: string; skuPartNumber: string; name: string; total: number },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }

  @Field(() => Int, { description: 'Seats free to assign' })
  get available(): number {
    return Math.max(0, this.total - this.consumed);
  }
}

@ObjectType('LicenseAssignment', { description: 'A user holding a license' })
@Entity({ tableName: 'license_assignments' })
@Unique({ properties: ['userId', 'skuId'] })
@Index({ properties: ['organizationId', 'environment', 'tenantId', 'assignedAt', 'id'] })
// The portal recount reads a batch of tenants' assignments from this index alone, in (tenant, user) order to merge
// them with users_recount_index (src/portal/portal-aggregates.ts).
@Index({
  name: 'license_assignments_recount_index',
  expression:
    'create index "license_assignments_recount_index" on "license_assignments" ("tenant_id", "user_id") include ("sku_id")',
})
export class LicenseAssignment extends ScopedEntity {
  [OptionalProps]?: 'assignedAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => ID)
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  skuId!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  assignedAt: Date = new Date();

  constructor(scope: Scope, fields: { tenantId: string; userId: string; skuId: string; assignedAt: Date }) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
