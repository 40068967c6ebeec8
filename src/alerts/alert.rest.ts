import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { MAX_COMMENT_LENGTH, MAX_COMMENTS_PER_ALERT } from './alert.types.js';

const ALERT_FIELDS = /* GraphQL */ `
  id
  tenantId
  title
  description
  severity
  status
  category
  source
  affectedEntity
  userId
  deviceId
  assignedToId
  assignedTo
  createdAt
  statusChangedAt
  updatedAt
`;

const LIST_SECURITY_ALERTS = /* GraphQL */ `
  query ListSecurityAlerts(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $severity: [AlertSeverity!]
    $status: [AlertStatus!]
    $category: [String!]
    $source: [String!]
    $assignedTo: [String!]
    $createdFrom: DateTime
    $createdTo: DateTime
    $search: String
    $sort: AlertSort
  ) {
    securityAlerts(
      tenantId: $tenantId
      page: $page
      limit: $limit
      sort: $sort
      filter: {
        severity: $severity
        status: $status
        category: $category
        source: $source
        assignedTo: $assignedTo
        createdFrom: $createdFrom
        createdTo: $createdTo
        search: $search
      }
    ) {
      items { ${ALERT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const SECURITY_ALERT_STATISTICS = /* GraphQL */ `
  query SecurityAlertStatistics($tenantId: UUID!) {
    securityAlertStatistics(tenantId: $tenantId) {
      total
      open
      bySeverity {
        severity
        count
      }
      byCategory {
        category
        count
      }
      categoryCount
      byStatus {
        status
        count
      }
      overdue {
        high
        medium
        total
        highTargetHours
        mediumTargetHours
      }
      computedAt
    }
  }
`;

const COMMENT_FIELDS = /* GraphQL */ `
  id
  alertId
  text
  author ${ACTOR_FIELDS}
  authorName
  createdAt
`;

const GET_SECURITY_ALERT = /* GraphQL */ `
  query GetSecurityAlert($tenantId: UUID!, $id: UUID!) {
    securityAlert(tenantId: $tenantId, id: $id) {
      ${ALERT_FIELDS}
      commentCount
      comments { ${COMMENT_FIELDS} }
    }
  }
`;

const LIST_SECURITY_ALERT_COMMENTS = /* GraphQL */ `
  query ListSecurityAlertComments($tenantId: UUID!, $id: UUID!, $page: Int, $limit: Int) {
    securityAlertComments(tenantId: $tenantId, id: $id, page: $page, limit: $limit) {
      items { ${COMMENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const UPDATE_SECURITY_ALERT = /* GraphQL */ `
  mutation UpdateSecurityAlert($tenantId: UUID!, $id: UUID!, $input: UpdateAlertInput!) {
    updateSecurityAlert(tenantId: $tenantId, id: $id, input: $input) {
      ${ALERT_FIELDS}
      commentCount
      comments { ${COMMENT_FIELDS} }
    }
  }
`;

const ADD_SECURITY_ALERT_COMMENT = /* GraphQL */ `
  mutation AddSecurityAlertComment($tenantId: UUID!, $id: UUID!, $input: AlertCommentInput!) {
    addSecurityAlertComment(tenantId: $tenantId, id: $id, input: $input) { ${COMMENT_FIELDS} }
  }
`;

/**
 * Security alerts (SPEC 4.2) in the tenant named by X-Tenant-Id (or ?tenantId=). Reading needs `read:tenants`,
 * changing and commenting `write:tenants`. `/alerts/statistics` is a fixed segment served before `/alerts/:id`.
 * Several values of a list filter: repeat the parameter or separate them with commas.
 */
export const ALERT_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/security/alerts',
    operation: LIST_SECURITY_ALERTS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      severity: { type: 'stringList' },
      status: { type: 'stringList' },
      category: { type: 'stringList' },
      source: { type: 'stringList' },
      assignedTo: { type: 'stringList' },
      createdFrom: { type: 'dateTime' },
      createdTo: { type: 'dateTimeUntil' },
      search: { type: 'string' },
      sort: { type: 'string' },
    },
    summary:
      'list alerts, newest first (?sort=oldest|severity); filters severity, status, category, source, assignedTo (member ids or unassigned), createdFrom/createdTo, search',
  },
  {
    method: 'GET',
    path: '/security/alerts/statistics',
    operation: SECURITY_ALERT_STATISTICS,
    tenant: 'tenantId',
    summary: 'alert counts by severity, category and status, and open alerts past the SPEC 8.3 targets',
  },
  {
    method: 'GET',
    path: '/security/alerts/:id',
    operation: GET_SECURITY_ALERT,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'one alert with commentCount and its first 25 comments (all of them: GET .../comments)',
  },
  {
    method: 'GET',
    path: '/security/alerts/:id/comments',
    operation: LIST_SECURITY_ALERT_COMMENTS,
    tenant: 'tenantId',
    params: { id: 'id' },
    query: PAGE_QUERY,
    summary: `a page of the alert's comments, oldest first (?page, ?limit ≤ 100; at most ${MAX_COMMENTS_PER_ALERT} per alert)`,
  },
  {
    method: 'PATCH',
    reachesCloud: true,
    path: '/security/alerts/:id',
    operation: UPDATE_SECURITY_ALERT,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    summary:
      'move the status ({status}; 409 {from,to,allowed} when forbidden) and/or assign ({assignedToId})',
  },
  {
    method: 'POST',
    reachesCloud: true,
    path: '/security/alerts/:id/comments',
    operation: ADD_SECURITY_ALERT_COMMENT,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    status: 201,
    summary: `add an investigation note ({text}, 1 to ${MAX_COMMENT_LENGTH} characters); 409 when the alert holds ${MAX_COMMENTS_PER_ALERT}`,
  },
];
