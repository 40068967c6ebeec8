import type { DelegatedAdminCustomer, Organization } from '@microsoft/microsoft-graph-types';
import type { GraphTenantClient } from './graph-client.js';

/** A customer tenant the partner has a GDAP relationship with. */
export interface PartnerCustomer {
  tenantId: string;
  displayName: string;
}

/** What `GET /organization` tells about a tenant. */
export interface TenantOrganization {
  tenantId: string;
  displayName: string;
  /** Verified domains, the default one first. */
  domains: string[];
  defaultDomain: string | null;
}

/**
 * The customers the partner can onboard: `GET /tenantRelationships/delegatedAdminCustomers` in the partner's
 * own tenant (application permission DelegatedAdminRelationship.Read.All), every page, by name.
 */
export async function listDelegatedAdminCustomers(partner: GraphTenantClient): Promise<PartnerCustomer[]> {
  const customers = await partner.all<DelegatedAdminCustomer>(
    '/tenantRelationships/delegatedAdminCustomers',
    {
      query: { $select: 'id,tenantId,displayName' },
    },
  );
  return customers
    .map((customer) => ({
      tenantId: customer.tenantId ?? customer.id ?? '',
      displayName: customer.displayName ?? customer.tenantId ?? '',
    }))
    .filter((customer) => customer.tenantId !== '')
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.tenantId.localeCompare(b.tenantId));
}

const CUSTOMERS_PATH = '/tenantRelationships/delegatedAdminCustomers';

/** One page of customers and the cursor of the next (Graph's nextLink), for cursor-paged listings. */
export interface PartnerCustomerPage {
  items: PartnerCustomer[];
  nextCursor: string | null;
}

/**
 * One page of the partner's customers, in Graph's order: `after` is the `nextCursor` of the previous page
 * (Graph's `@odata.nextLink`). A cursor that is not a nextLink of this very collection on the configured
 * Graph is refused (it comes from a client: the app's token must never follow a URL someone else chose).
 */
export async function delegatedAdminCustomersPage(
  partner: GraphTenantClient,
  graphUrl: string,
  after?: string | null,
  pageSize = 100,
): Promise<PartnerCustomerPage> {
  if (after && !after.startsWith(`${graphUrl}/v1.0${CUSTOMERS_PATH}?`))
    throw new RangeError('The cursor is not a page of the delegated admin customers');
  const pages = partner.pages<DelegatedAdminCustomer>(after ?? CUSTOMERS_PATH, {
    query: { $select: 'id,tenantId,displayName', $top: pageSize },
  });
  const { value: page } = await pages.next();
  await pages.return(undefined);
  return {
    items: (page?.value ?? []).flatMap((customer: DelegatedAdminCustomer) => {
      const tenantId = customer.tenantId ?? customer.id ?? '';
      return tenantId ? [{ tenantId, displayName: customer.displayName ?? tenantId }] : [];
    }),
    nextCursor: page?.nextLink ?? null,
  };
}

/**
 * The tenant's name and verified domains: `GET /organization` (Organization.Read.All), which answers a
 * collection of the one organization the token's tenant is.
 */
export async function readOrganization(tenant: GraphTenantClient): Promise<TenantOrganization> {
  const organizations = await tenant.get<{ value?: Organization[] }>('/organization', {
    query: { $select: 'id,displayName,verifiedDomains' },
  });
  const organization = organizations.value?.[0];
  const domains = [...(organization?.verifiedDomains ?? [])].sort(
    (a, b) => Number(b.isDefault ?? false) - Number(a.isDefault ?? false),
  );
  const names = domains.map((domain) => domain.name).filter((name): name is string => Boolean(name));
  return {
    tenantId: organization?.id ?? tenant.tenantId,
    displayName: organization?.displayName ?? '',
    domains: names,
    defaultDomain: domains.find((domain) => domain.isDefault)?.name ?? names[0] ?? null,
  };
}
