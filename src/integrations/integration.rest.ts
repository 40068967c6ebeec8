import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const INTEGRATION_FIELDS = /* GraphQL */ `
  type
  name
  description
  connected
  status
  connectedAt
  webhookId
  url
  events
  filter { tenantIds minSeverity }
  lastDelivery { id event status statusCode at }
`;

const LIST_INTEGRATIONS = /* GraphQL */ `
  query ListIntegrations($page: Int, $limit: Int) {
    integrations(page: $page, limit: $limit) {
      items { ${INTEGRATION_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The webhook type's response carries its signing secret, this once. */
const CONNECT_INTEGRATION = /* GraphQL */ `
  mutation ConnectIntegration($type: IntegrationType!, $input: ConnectIntegrationInput!) {
    connectIntegration(type: $type, input: $input) { ${INTEGRATION_FIELDS} secret }
  }
`;

const DISCONNECT_INTEGRATION = /* GraphQL */ `
  mutation DisconnectIntegration($type: IntegrationType!) {
    disconnectIntegration(type: $type) { ${INTEGRATION_FIELDS} }
  }
`;

/** An unknown :type is refused by the IntegrationType enum, which the handler answers with 404. */
export const INTEGRATION_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/settings/integrations',
    operation: LIST_INTEGRATIONS,
    query: PAGE_QUERY,
    summary: 'list integrations (webhook, slack, teams) with status and last delivery',
  },
  {
    method: 'POST',
    path: '/settings/integrations/:type/connect',
    operation: CONNECT_INTEGRATION,
    params: { type: 'type' },
    body: 'input',
    status: 201,
    summary: 'connect an integration (201; 400 for a bad configuration, 409 when connected; Admin key)',
  },
  {
    method: 'DELETE',
    path: '/settings/integrations/:type',
    operation: DISCONNECT_INTEGRATION,
    params: { type: 'type' },
    summary: 'disconnect an integration, deleting its webhook and delivery log (Admin key)',
  },
];
