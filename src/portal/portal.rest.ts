import { type RouteDefinition, type QueryParamMapping } from '../../rest-adapter/route.js';

const PORTAL_TENANT_STATS = /* GraphQL */ `
  query PortalTenantStats($tenantGroupId: UUID) {
    portalTenantStats(tenantGroupId: $tenantGroupId) {
      total_tenants: totalTenants
      healthy_count: healthyCount
      warning_count: warningCount
      critical_count: criticalCount
      dataAsOf
    }
  }
`;

const SEATS = /* GraphQL */ `
  totalSeats
  assignedSeats
  availableSeats
  utilizationPercent
  inactiveLicensedUsers
`;

const LICENSE_INTELLIGENCE_SUMMARY = /* GraphQL */ `
  query LicenseIntelligenceSummary($tenantGroupId: UUID) {
    licenseIntelligenceSummary(tenantGroupId: $tenantGroupId) {
      totals { tenants ${SEATS} inactiveAssignments }
      skus { skuPartNumber name tenantCount ${SEATS} }
      skuCount
      overAllocatedTenants {
        tenantId
        tenantName
        skus { skuId skuPartNumber name totalSeats assignedSeats excessSeats }
        skuCount
      }
      overAllocatedTenantCount
      inactiveAfterDays
      generatedAt
      dataAsOf
    }
  }
`;

/** Every portal view may be narrowed to one tenant group (docs/tenant-groups.md). */
const TENANT_GROUP_QUERY: Record<string, QueryParamMapping> = { tenantGroupId: { type: 'string' } };

/**
 * The provider portal (SPEC 4.2, 5.3): across every tenant of the caller's organization and environment,
 * so no X-Tenant-Id. Every route needs `msp:read` (any API key level; an access token with `msp:read` or `admin`).
 */
export const PORTAL_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/msp-portal/tenants/stats',
    operation: PORTAL_TENANT_STATS,
    query: TENANT_GROUP_QUERY,
    metaFields: ['dataAsOf'],
    summary: 'portal tenant overview: total_tenants, healthy_count, warning_count, critical_count (msp:read)',
  },
  {
    method: 'GET',
    path: '/msp-portal/license-intelligence/summary',
    operation: LICENSE_INTELLIGENCE_SUMMARY,
    query: TENANT_GROUP_QUERY,
    metaFields: ['dataAsOf'],
    summary:
      'aggregated license utilization across tenants: totals, per SKU, over-allocated tenants, inactive licensed users (msp:read)',
  },
];
