import { GraphQLDateTime } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { INACTIVE_AFTER_DAYS } from './portal-aggregates.js';
import {
  SUMMARY_MAX_OVER_ALLOCATED_TENANTS,
  SUMMARY_MAX_SKUS,
  SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT,
} from '../http/list-bounds.js';

/** The provider portal's tenant overview (SPEC 4.2: total_tenants, healthy_count, warning_count, critical_count). */
@ObjectType({
  description: "Health of the caller's tenants (this organization and environment), by docs/tenant-health.md",
})
export class PortalTenantStats {
  @Field(() => Int)
  totalTenants!: number;

  @Field(() => Int)
  healthyCount!: number;

  @Field(() => Int)
  warningCount!: number;

  @Field(() => Int)
  criticalCount!: number;

  @Field(() => GraphQLDateTime, {
    description:
      'When the stored secure scores behind the health were computed (the oldest; REST meta.dataAsOf)',
  })
  dataAsOf!: Date;
}

@ObjectType({ description: "License seats summed over the caller's tenants" })
export class LicenseUtilizationTotals {
  @Field(() => Int, { description: 'Tenants holding at least one license SKU' })
  tenants!: number;

  @Field(() => Int, { description: 'Seats purchased' })
  totalSeats!: number;

  @Field(() => Int, { description: 'Seats assigned' })
  assignedSeats!: number;

  @Field(() => Int, {
    description:
      'Seats free to assign, summed per tenant SKU (an over-allocated SKU counts 0; seats do not move between tenants)',
  })
  availableSeats!: number;

  @Field(() => Float, { description: 'assignedSeats / totalSeats × 100, one decimal; 0 without seats' })
  utilizationPercent!: number;

  @Field(() => Int, {
    description: `Distinct users holding a license while disabled or not signed in for ${INACTIVE_AFTER_DAYS}+ days`,
  })
  inactiveLicensedUsers!: number;

  @Field(() => Int, { description: 'Seats held by those users (a user may hold several SKUs)' })
  inactiveAssignments!: number;
}

@ObjectType({ description: 'One SKU (by part number) summed over the tenants that subscribe to it' })
export class SkuUtilization {
  @Field({ description: 'e.g. ENTERPRISEPACK' })
  skuPartNumber!: string;

  @Field()
  name!: string;

  @Field(() => Int, { description: 'Tenants that subscribe to this SKU' })
  tenantCount!: number;

  @Field(() => Int)
  totalSeats!: number;

  @Field(() => Int)
  assignedSeats!: number;

  @Field(() => Int, { description: 'Summed per tenant; an over-allocated tenant counts 0' })
  availableSeats!: number;

  @Field(() => Float, { description: 'assignedSeats / totalSeats × 100, one decimal; 0 without seats' })
  utilizationPercent!: number;

  @Field(() => Int, {
    description: `Seats of this SKU held by disabled users or users inactive for ${INACTIVE_AFTER_DAYS}+ days`,
  })
  inactiveLicensedUsers!: number;
}

@ObjectType({ description: 'A SKU of a tenant with more seats assigned than purchased' })
export class OverAllocatedSku {
  @Field(() => ID)
  skuId!: string;

  @Field()
  skuPartNumber!: string;

  @Field()
  name!: string;

  @Field(() => Int)
  totalSeats!: number;

  @Field(() => Int)
  assignedSeats!: number;

  @Field(() => Int, { description: 'assignedSeats - totalSeats: seats to buy or take back' })
  excessSeats!: number;
}

@ObjectType({ description: 'A tenant where at least one SKU has more seats assigned than purchased' })
export class OverAllocatedTenant {
  @Field(() => ID)
  tenantId!: string;

  @Field()
  tenantName!: string;

  @Field(() => [OverAllocatedSku], {
    description: `By part number: the ${SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT} with the most excess seats (skuCount says how many there are)`,
  })
  skus!: OverAllocatedSku[];

  @Field(() => Int, { description: 'Over-allocated SKUs of the tenant in all' })
  skuCount!: number;
}

@ObjectType({
  description:
    "Aggregated license utilization across the caller's tenants (SPEC 4.2), with the waste an MSP acts on",
})
export class LicenseIntelligenceSummary {
  @Field(() => LicenseUtilizationTotals)
  totals!: LicenseUtilizationTotals;

  @Field(() => [SkuUtilization], {
    description: `By part number: the ${SUMMARY_MAX_SKUS} with the most seats (skuCount says how many there are)`,
  })
  skus!: SkuUtilization[];

  @Field(() => Int, { description: 'Distinct SKUs (part numbers) in all' })
  skuCount!: number;

  @Field(() => [OverAllocatedTenant], {
    description: `By tenant name: the ${SUMMARY_MAX_OVER_ALLOCATED_TENANTS} with the most excess seats (overAllocatedTenantCount says how many there are)`,
  })
  overAllocatedTenants!: OverAllocatedTenant[];

  @Field(() => Int, { description: 'Over-allocated tenants in all' })
  overAllocatedTenantCount!: number;

  @Field(() => Int, { description: 'Days without a sign-in after which a licensed user counts as inactive' })
  inactiveAfterDays!: number;

  @Field(() => GraphQLDateTime, {
    description: 'When the summary was computed (it is computed on every read)',
  })
  generatedAt!: Date;

  @Field(() => GraphQLDateTime, {
    description:
      'When the stored aggregates this answer rests on were computed (the oldest of them; REST meta.dataAsOf)',
  })
  dataAsOf!: Date;
}
