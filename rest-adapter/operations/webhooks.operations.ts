/** The GraphQL operations behind the webhook routes of SPEC 4.1 (wire names: DECISIONS "Wire names"). */
const WEBHOOK_FIELDS = /* GraphQL */ `
  id
  url
  events
  filter { tenantIds minSeverity }
  headers
  enabled
  disabledAt
  disabledReason
  failingSince
  previousSecretExpiresAt
  createdAt
  updatedAt
`;

const DELIVERY_FIELDS = /* GraphQL */ `
  id
  webhookId
  eventId
  event
  status
  attemptCount
  nextAttemptAt
  lastAttemptAt
  lastStatusCode
  lastError
  createdAt
  completedAt
  attempts { attemptNumber attemptedAt statusCode latencyMs error }
`;

export const LIST_WEBHOOKS = /* GraphQL */ `
  query ListWebhooks($page: Int, $limit: Int) {
    webhooks(page: $page, limit: $limit) {
      items { ${WEBHOOK_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_WEBHOOK = /* GraphQL */ `
  query GetWebhook($id: UUID!) {
    webhook(id: $id) { ${WEBHOOK_FIELDS} }
  }
`;

/** The one response (with rotation) that carries `secret`. */
export const CREATE_WEBHOOK = /* GraphQL */ `
  mutation CreateWebhook($input: CreateWebhookInput!) {
    createWebhook(input: $input) { ${WEBHOOK_FIELDS} secret }
  }
`;

export const UPDATE_WEBHOOK = /* GraphQL */ `
  mutation UpdateWebhook($id: UUID!, $input: UpdateWebhookInput!) {
    updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} }
  }
`;

export const DELETE_WEBHOOK = /* GraphQL */ `
  mutation DeleteWebhook($id: UUID!) {
    deleteWebhook(id: $id) { ${WEBHOOK_FIELDS} }
  }
`;

export const ROTATE_WEBHOOK_SECRET = /* GraphQL */ `
  mutation RotateWebhookSecret($id: UUID!) {
    rotateWebhookSecret(id: $id) { ${WEBHOOK_FIELDS} secret }
  }
`;

export const SEND_WEBHOOK_TEST = /* GraphQL */ `
  mutation SendWebhookTest($id: UUID!) {
    sendWebhookTest(id: $id) { ${DELIVERY_FIELDS} }
  }
`;

export const LIST_WEBHOOK_DELIVERIES = /* GraphQL */ `
  query ListWebhookDeliveries($webhookId: UUID!, $page: Int, $limit: Int) {
    webhookDeliveries(webhookId: $webhookId, page: $page, limit: $limit) {
      items { ${DELIVERY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_WEBHOOK_DELIVERY = /* GraphQL */ `
  query GetWebhookDelivery($webhookId: UUID!, $id: UUID!) {
    webhookDelivery(webhookId: $webhookId, id: $id) {
      ${DELIVERY_FIELDS}
      payload { id event severity tenant { id name domain } details timestamp actionUrl }
    }
  }
`;

export const RESEND_WEBHOOK_DELIVERY = /* GraphQL */ `
  mutation ResendWebhookDelivery($webhookId: UUID!, $id: UUID!) {
    resendWebhookDelivery(webhookId: $webhookId, id: $id) { ${DELIVERY_FIELDS} }
  }
`;
