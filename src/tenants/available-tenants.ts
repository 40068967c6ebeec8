import { IsOptional, Max, MaxLength, Min } from '../core/perf/class-validator-rules.js';
import { ArgsType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CursorPageInfo, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { Tenant } from './tenant.entity.js';

@ArgsType()
export class AvailableTenantsArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}` })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;

  @Field(() => String, { nullable: true, description: 'The nextCursor of the previous page' })
  @IsOptional()
  @MaxLength(1000)
  after?: string | null;
}

/** Whether onboardTenant would take the customer (an upstream tenant belongs to one environment of one organization). */
export enum AvailableTenantStatus {
  AVAILABLE = 'Available',
  ONBOARDED = 'Onboarded',
  ONBOARDED_IN_OTHER_ENVIRONMENT = 'Onboarded in other environment',
  ADMINISTERED_ELSEWHERE = 'Administered elsewhere',
}
registerEnumType(AvailableTenantStatus, {
  name: 'AvailableTenantStatus',
  description:
    'Available (onboardTenant takes it), Onboarded (here: tenantId), Onboarded in other environment (of this organization), Administered elsewhere (by another organization, not named; onboarding answers 409 UPSTREAM_TENANT_TAKEN)',
});

@ObjectType({
  description:
    'A customer tenant of the upstream cloud that grants this organization delegated access: onboardTenant takes its externalId',
})
export class AvailableTenant {
  @Field({ description: 'The tenant id in the upstream cloud (onboardTenant input.externalId)' })
  externalId!: string;

  @Field()
  displayName!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'The tenant it already is in this environment, null while it is not onboarded',
  })
  tenantId!: string | null;

  @Field(() => AvailableTenantStatus)
  status!: AvailableTenantStatus;
}

@ObjectType({
  description: 'A page of available tenants: no total (the cloud gives none), a cursor to the next',
})
export class AvailableTenantPage {
  @Field(() => [AvailableTenant])
  items!: AvailableTenant[];

  @Field(() => CursorPageInfo)
  pageInfo!: CursorPageInfo;
}

/**
 * The customers that grant the caller's organization delegated access, in the cloud's order, each with the
 * tenant it already is in the caller's environment (issue #33 item 3: the external ids the README asks for).
 * The cloud is asked (simulated: its grants; Microsoft 365: delegatedAdminCustomers), so a customer that
 * granted access a minute ago is there before anyone onboarded it. One lookup of our tenants per page.
 */
export async function listAvailableTenants(
  ctx: ServiceContext,
  args: AvailableTenantsArgs,
): Promise<AvailableTenantPage> {
  const provider = await ctx.cloud.provider();
  const page = await provider.listDelegatedCustomers({
    limit: args.limit,
    cursor: args.after ?? null,
  });
  const ids = page.items.map((item) => item.tenantExternalId);
  const onboarded = ids.length
    ? await ctx.em.find(Tenant, { externalId: { $in: ids } }, { fields: ['id', 'externalId'] })
    : [];
  const tenantOf = new Map(onboarded.map((tenant) => [tenant.externalId, tenant.id]));
  const holderOf = await holdersOf(ctx, ids);
  const statusOf = (externalId: string): AvailableTenantStatus => {
    const holder = holderOf.get(externalId);
    if (tenantOf.has(externalId)) return AvailableTenantStatus.ONBOARDED;
    if (!holder) return AvailableTenantStatus.AVAILABLE;
    return holder.organization_id === ctx.scope.organizationId
      ? AvailableTenantStatus.ONBOARDED_IN_OTHER_ENVIRONMENT
      : AvailableTenantStatus.ADMINISTERED_ELSEWHERE;
  };
  return {
    items: page.items.map((item) => ({
      externalId: item.tenantExternalId,
      displayName: item.displayName,
      tenantId: tenantOf.get(item.tenantExternalId) ?? null,
      status: statusOf(item.tenantExternalId),
    })),
    pageInfo: { limit: args.limit, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor },
  };
}

/**
 * Who holds each of `externalIds` (organization id and environment only), in one statement through the
 * SECURITY DEFINER function of migration 20270103091800: the request's role sees only its own rows. Only
 * "another organization" leaves this module, never which one.
 */
async function holdersOf(
  ctx: ServiceContext,
  externalIds: string[],
): Promise<Map<string, { organization_id: string; environment: string }>> {
  if (externalIds.length === 0) return new Map();
  const rows = await ctx.em
    .getConnection()
    .execute<Array<{ external_id: string; organization_id: string; environment: string }>>(
      'select external_id, organization_id, environment from upstream_tenant_holders(array[?]::text[])',
      [externalIds],
    );
  return new Map(rows.map((row) => [row.external_id, row]));
}
