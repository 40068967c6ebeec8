import { ACTOR_FIELDS } from './actor.fields.js';
/** The GraphQL operations behind the compliance connector routes of SPEC 4.2 (SPEC 2.6 "Data connector"). */
const CONNECTOR_FIELDS = /* GraphQL */ `
  id
  tenantId
  name
  category
  sourceType
  status
  configurationError
  pausedBy ${ACTOR_FIELDS}
  userMapping { strategy mappings { sourceIdentity userPrincipalName } unmatched fallbackMailbox }
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

export const LIST_CONNECTORS = /* GraphQL */ `
  query ListComplianceConnectors($tenantId: UUID!, $page: Int, $limit: Int) {
    complianceConnectors(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${CONNECTOR_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CREATE_CONNECTOR = /* GraphQL */ `
  mutation CreateComplianceConnector($tenantId: UUID!, $input: CreateConnectorInput!) {
    createComplianceConnector(tenantId: $tenantId, input: $input) { ${CONNECTOR_FIELDS} }
  }
`;

export const UPDATE_CONNECTOR = /* GraphQL */ `
  mutation UpdateComplianceConnector($tenantId: UUID!, $id: UUID!, $input: UpdateConnectorInput!) {
    updateComplianceConnector(tenantId: $tenantId, id: $id, input: $input) { ${CONNECTOR_FIELDS} }
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

export const CONNECTOR_STATUS = /* GraphQL */ `
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

export const CONNECTOR_HISTORY = /* GraphQL */ `
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
