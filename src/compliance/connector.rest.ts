import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';

/** A connector's fields; `userMapping` is given in full (up to MAX_USER_MAPPINGS pairs) or summed up. */
const connectorFields = (userMapping: string) => /* GraphQL */ `
  id
  tenantId
  name
  category
  sourceType
  status
  configurationError
  pausedBy ${ACTOR_FIELDS}
  userMapping { ${userMapping} }
  scheduleHours
  credentialFields
  consecutiveFailures
  lastImportAt
  nextRunAt
  itemsImported
  errorCount
  createdAt
  updatedAt
`;
const CONNECTOR_FIELDS = connectorFields(
  'strategy mappings { sourceIdentity userPrincipalName } mappingCount unmatched fallbackMailbox',
);
// A page of up to 100 connectors of up to 1,000 pairs each was 100,000 pairs (issue #32 item 3): the list
// tells how many pairs each has, GET /compliance/connectors/:id gives them.
const CONNECTOR_SUMMARY_FIELDS = connectorFields('strategy mappingCount unmatched fallbackMailbox');

const GET_CONNECTOR = /* GraphQL */ `
  query GetComplianceConnector($tenantId: UUID!, $id: UUID!) {
    complianceConnector(tenantId: $tenantId, id: $id) { ${CONNECTOR_FIELDS} }
  }
`;

const LIST_CONNECTORS = /* GraphQL */ `
  query ListComplianceConnectors($tenantId: UUID!, $page: Int, $limit: Int) {
    complianceConnectors(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${CONNECTOR_SUMMARY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_CONNECTOR = /* GraphQL */ `
  mutation CreateComplianceConnector($tenantId: UUID!, $input: CreateConnectorInput!) {
    createComplianceConnector(tenantId: $tenantId, input: $input) { ${CONNECTOR_FIELDS} }
  }
`;

/** The statistics the status report and the history share (ConnectorStatistics). */
const STATISTICS_FIELDS = /* GraphQL */ `
  lastImportAt
  lastRunStatus
  lastRunFinishedAt
  itemsImported
  errorCount
  runs
  failedRuns
`;

const CONNECTOR_STATUS = /* GraphQL */ `
  query ComplianceConnectorStatus($tenantId: UUID!, $id: UUID!) {
    complianceConnectorStatus(tenantId: $tenantId, id: $id) {
      connectorId
      status
      health
      configurationError
      consecutiveFailures
      nextRunAt
      ${STATISTICS_FIELDS}
    }
  }
`;

const UPDATE_CONNECTOR = /* GraphQL */ `
  mutation UpdateComplianceConnector($tenantId: UUID!, $id: UUID!, $input: UpdateConnectorInput!) {
    updateComplianceConnector(tenantId: $tenantId, id: $id, input: $input) { ${CONNECTOR_FIELDS} }
  }
`;

const CONNECTOR_HISTORY = /* GraphQL */ `
  query ComplianceConnectorHistory($tenantId: UUID!, $id: UUID!, $page: Int, $limit: Int) {
    complianceConnectorHistory(tenantId: $tenantId, id: $id, page: $page, limit: $limit) {
      items {
        id
        connectorId
        scheduledFor
        status
        startedAt
        finishedAt
        durationMs
        itemsImported
        errorCount
        errors
        failureReason
      }
      pageInfo {
        page
        limit
        total
      }
      statistics { ${STATISTICS_FIELDS} }
    }
  }
`;

/**
 * Compliance data connectors (SPEC 4.2; docs/compliance.md) in the tenant named by X-Tenant-Id (or
 * ?tenantId=). Reading needs `read:tenants`, creating and updating `write:tenants`. Credentials go in and
 * never come out.
 */
export const CONNECTOR_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/compliance/connectors',
    operation: LIST_CONNECTORS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'list connectors, newest first (userMapping.mappingCount; the pairs: GET .../:id)',
  },
  {
    method: 'GET',
    path: '/compliance/connectors/:id',
    operation: GET_CONNECTOR,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'one connector with its whole user mapping table',
  },
  {
    method: 'POST',
    reachesCloud: true,
    path: '/compliance/connectors',
    operation: CREATE_CONNECTOR,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary: 'create and configure a connector (201; a test connection must pass first)',
  },
  {
    method: 'GET',
    path: '/compliance/connectors/:id/status',
    operation: CONNECTOR_STATUS,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'connector health and import status: health, last import, next run, totals',
  },
  {
    method: 'PUT',
    reachesCloud: true,
    path: '/compliance/connectors/:id',
    operation: UPDATE_CONNECTOR,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    summary: 'update: action Pause/Resume and/or new configuration (validated by a test connection)',
  },
  {
    method: 'GET',
    path: '/compliance/connectors/:id/history',
    operation: CONNECTOR_HISTORY,
    tenant: 'tenantId',
    params: { id: 'id' },
    query: PAGE_QUERY,
    // `data` stays the page of runs (SPEC 2.1 pagination); the statistics describe every run: meta.
    metaFields: ['statistics'],
    summary:
      'import history and statistics: each run (start, end, duration, items imported, failed items and why), latest first; `meta.statistics` over every run',
  },
];
