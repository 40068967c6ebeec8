import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { MAX_USER_CSV_BYTES } from './user-csv.js';

const USER_IMPORT_FIELDS = /* GraphQL */ `
  id
  tenantId
  status
  totalRows
  processedRows
  createdRows
  failedRows
  failureReason
  passwordsPurgedAt
  createdBy ${ACTOR_FIELDS}
  createdAt
  startedAt
  finishedAt
`;

const IMPORT_USERS = /* GraphQL */ `
  mutation ImportUsers($tenantId: UUID!, $csv: String!) {
    importUsers(tenantId: $tenantId, csv: $csv) {
      operation { ${USER_IMPORT_FIELDS} }
      generatedPasswords { line userPrincipalName password }
    }
  }
`;

const GET_USER_IMPORT = /* GraphQL */ `
  query GetUserImport($tenantId: UUID!, $id: UUID!, $page: Int, $limit: Int) {
    userImport(tenantId: $tenantId, id: $id) {
      ${USER_IMPORT_FIELDS}
      rows(page: $page, limit: $limit) {
        items { line userPrincipalName status userId error }
        pageInfo { page limit total }
      }
    }
  }
`;

const RETRY_USER_IMPORT = /* GraphQL */ `
  mutation RetryUserImport($tenantId: UUID!, $id: UUID!) {
    retryUserImport(tenantId: $tenantId, id: $id) { ${USER_IMPORT_FIELDS} }
  }
`;

const BASE = '/user-management-identity/users';

/**
 * Bulk user import (SPEC 4.2; docs/user-management.md) in the tenant named by X-Tenant-Id: a CSV or JSON body
 * starts a job (202) whose progress is read back. Reading needs `read:users`, importing `write:users`. The
 * /users/bulk routes are fixed segments served before /users/:userId.
 */
export const USER_IMPORT_ROUTES: RouteDefinition[] = [
  {
    method: 'POST',
    path: `${BASE}/bulk`,
    operation: IMPORT_USERS,
    tenant: 'tenantId',
    body: 'spread',
    csvBody: 'csv',
    status: 202,
    summary: `bulk user creation from CSV (Content-Type: text/csv up to ${MAX_USER_CSV_BYTES / (1024 * 1024)} MiB, or JSON {csv}): every row is checked first (400 listing line, column and problem, nothing written); 202 with the queued operation and the generated passwords, shown once`,
  },
  {
    method: 'GET',
    path: `${BASE}/bulk/:operationId`,
    operation: GET_USER_IMPORT,
    tenant: 'tenantId',
    params: { operationId: 'id' },
    query: PAGE_QUERY,
    summary:
      'a bulk creation: status (Queued, Running, Completed, CompletedWithErrors, Failed), counters and a page of rows with their outcome',
  },
  {
    method: 'POST',
    path: `${BASE}/bulk/:operationId/retry`,
    operation: RETRY_USER_IMPORT,
    tenant: 'tenantId',
    params: { operationId: 'id' },
    status: 202,
    summary:
      'run a Failed bulk creation again for its remaining rows only (created and failed rows are not repeated); 409 unless Failed with rows remaining',
  },
];
