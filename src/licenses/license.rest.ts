import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const LICENSE_FIELDS = /* GraphQL */ `
  skuId
  skuPartNumber
  name
  total
  consumed
  available
`;

const LIST_LICENSES = /* GraphQL */ `
  query ListLicenses($tenantId: UUID!, $page: Int, $limit: Int) {
    licenses(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${LICENSE_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const ASSIGNMENT_FIELDS = /* GraphQL */ `
  id
  userId
  skuId
  assignedAt
`;

const LIST_LICENSE_ASSIGNMENTS = /* GraphQL */ `
  query ListLicenseAssignments($tenantId: UUID!, $userId: UUID, $skuId: UUID, $page: Int, $limit: Int) {
    licenseAssignments(tenantId: $tenantId, userId: $userId, skuId: $skuId, page: $page, limit: $limit) {
      items { ${ASSIGNMENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const ASSIGN_LICENSE = /* GraphQL */ `
  mutation AssignLicense($tenantId: UUID!, $input: LicenseAssignmentInput!) {
    assignLicense(tenantId: $tenantId, input: $input) { ${ASSIGNMENT_FIELDS} }
  }
`;

const REMOVE_LICENSE = /* GraphQL */ `
  mutation RemoveLicense($tenantId: UUID!, $input: LicenseAssignmentInput!) {
    removeLicense(tenantId: $tenantId, input: $input) {
      userId
      skuId
      removed
      removedAt
    }
  }
`;

export const LICENSE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/tenants/:id/licenses',
    operation: LIST_LICENSES,
    params: { id: 'tenantId' },
    query: PAGE_QUERY,
    summary: 'list available licenses (SKUs with seats), by name',
  },
  {
    method: 'GET',
    path: '/tenants/:id/licenses/assignments',
    operation: LIST_LICENSE_ASSIGNMENTS,
    params: { id: 'tenantId' },
    query: { ...PAGE_QUERY, userId: { type: 'string' }, skuId: { type: 'string' } },
    summary: 'list assignments, newest first (filters: userId, skuId)',
  },
  {
    method: 'POST',
    path: '/tenants/:id/licenses/assign',
    operation: ASSIGN_LICENSE,
    params: { id: 'tenantId' },
    body: 'input',
    summary: 'assign license (idempotent: 200 with the assignment, also when already held)',
  },
  {
    method: 'POST',
    path: '/tenants/:id/licenses/remove',
    operation: REMOVE_LICENSE,
    params: { id: 'tenantId' },
    body: 'input',
    summary: 'remove license (idempotent: 200, removed: false when not held)',
  },
];
