import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const LIST_DLP_POLICIES = /* GraphQL */ `
  query ListEndpointDlpPolicies(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $action: [DlpPolicyAction!]
    $activity: [DlpActivity!]
    $search: String
  ) {
    endpointDlpPolicies(
      tenantId: $tenantId
      page: $page
      limit: $limit
      filter: { action: $action, activity: $activity, search: $search }
    ) {
      items {
        id
        tenantId
        name
        action
        deviceGroups
        monitoredActivities
        enabled
        createdAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

const LIST_DLP_ALERTS = /* GraphQL */ `
  query ListEndpointDlpAlerts(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $policyId: [UUID!]
    $activity: [DlpActivity!]
    $actionTaken: [DlpActionTaken!]
    $from: DateTime
    $to: DateTime
  ) {
    endpointDlpAlerts(
      tenantId: $tenantId
      page: $page
      limit: $limit
      filter: { policyId: $policyId, activity: $activity, actionTaken: $actionTaken, from: $from, to: $to }
    ) {
      items {
        id
        tenantId
        policyId
        policyName
        activity
        deviceId
        deviceName
        userId
        userPrincipalName
        fileName
        actionTaken
        occurredAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

/**
 * Endpoint DLP (SPEC 4.2), read-only, in the tenant named by X-Tenant-Id (or ?tenantId=): needs `read:tenants`.
 * Several values of a list filter: repeat the parameter or separate them with commas.
 */
export const DLP_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/security/endpoint-dlp/policies',
    operation: LIST_DLP_POLICIES,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      action: { type: 'stringList' },
      activity: { type: 'stringList' },
      search: { type: 'string' },
    },
    summary: 'endpoint DLP policies by name (read-only); filters action, activity, search',
  },
  {
    method: 'GET',
    path: '/security/endpoint-dlp/alerts',
    operation: LIST_DLP_ALERTS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      policyId: { type: 'stringList' },
      activity: { type: 'stringList' },
      actionTaken: { type: 'stringList' },
      from: { type: 'dateTime' },
      to: { type: 'dateTimeUntil' },
    },
    summary:
      'what endpoint DLP policies matched, newest first (read-only); filters policyId, activity, actionTaken, from/to',
  },
];
