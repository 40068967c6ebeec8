/** The GraphQL operations behind the integration routes of SPEC 4.2. */
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

export const LIST_INTEGRATIONS = /* GraphQL */ `
  query ListIntegrations($page: Int, $limit: Int) {
    integrations(page: $page, limit: $limit) {
      items { ${INTEGRATION_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The webhook type's response carries its signing secret, this once. */
export const CONNECT_INTEGRATION = /* GraphQL */ `
  mutation ConnectIntegration($type: IntegrationType!, $input: ConnectIntegrationInput!) {
    connectIntegration(type: $type, input: $input) { ${INTEGRATION_FIELDS} secret }
  }
`;

export const DISCONNECT_INTEGRATION = /* GraphQL */ `
  mutation DisconnectIntegration($type: IntegrationType!) {
    disconnectIntegration(type: $type) { ${INTEGRATION_FIELDS} }
  }
`;
