/** The GraphQL operations behind the license routes of SPEC 4.1 (wire names: DECISIONS). */
const LICENSE_FIELDS = /* GraphQL */ `
  skuId
  skuPartNumber
  name
  total
  consumed
  available
`;

const ASSIGNMENT_FIELDS = /* GraphQL */ `
  id
  userId
  skuId
  assignedAt
`;

export const LIST_LICENSES = /* GraphQL */ `
  query ListLicenses($tenantId: UUID!, $page: Int, $limit: Int) {
    licenses(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${LICENSE_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const LIST_LICENSE_ASSIGNMENTS = /* GraphQL */ `
  query ListLicenseAssignments($tenantId: UUID!, $userId: UUID, $skuId: UUID, $page: Int, $limit: Int) {
    licenseAssignments(tenantId: $tenantId, userId: $userId, skuId: $skuId, page: $page, limit: $limit) {
      items { ${ASSIGNMENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const ASSIGN_LICENSE = /* GraphQL */ `
  mutation AssignLicense($tenantId: UUID!, $input: LicenseAssignmentInput!) {
    assignLicense(tenantId: $tenantId, input: $input) { ${ASSIGNMENT_FIELDS} }
  }
`;

export const REMOVE_LICENSE = /* GraphQL */ `
  mutation RemoveLicense($tenantId: UUID!, $input: LicenseAssignmentInput!) {
    removeLicense(tenantId: $tenantId, input: $input) {
      userId
      skuId
      removed
      removedAt
    }
  }
`;
