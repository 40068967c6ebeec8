/**
 * The GraphQL operations behind the provider portal routes (SPEC 4.2). Tenant stats answer with the
 * names SPEC gives (total_tenants, ...) through aliases; the license summary, which SPEC does not spell
 * out, keeps the camelCase wire names of DECISIONS.
 */
export const PORTAL_TENANT_STATS = /* GraphQL */ `
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

export const LICENSE_INTELLIGENCE_SUMMARY = /* GraphQL */ `
  query LicenseIntelligenceSummary($tenantGroupId: UUID) {
    licenseIntelligenceSummary(tenantGroupId: $tenantGroupId) {
      totals { tenants ${SEATS} inactiveAssignments }
      skus { skuPartNumber name tenantCount ${SEATS} }
      overAllocatedTenants {
        tenantId
        tenantName
        skus { skuId skuPartNumber name totalSeats assignedSeats excessSeats }
      }
      inactiveAfterDays
      generatedAt
      dataAsOf
    }
  }
`;
