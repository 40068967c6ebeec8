import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { SECRET_ROTATION_OVERLAP_HOURS } from './webhook.settings.js';

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

const LIST_WEBHOOKS = /* GraphQL */ `
  query ListWebhooks($page: Int, $limit: Int) {
    webhooks(page: $page, limit: $limit) {
      items { ${WEBHOOK_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The one response (with rotation) that carries `secret`. */
const CREATE_WEBHOOK = /* GraphQL */ `
  mutation CreateWebhook($input: CreateWebhookInput!) {
    createWebhook(input: $input) { ${WEBHOOK_FIELDS} secret }
  }
`;

const GET_WEBHOOK = /* GraphQL */ `
  query GetWebhook($id: UUID!) {
    webhook(id: $id) { ${WEBHOOK_FIELDS} }
  }
`;

const UPDATE_WEBHOOK = /* GraphQL */ `
  mutation UpdateWebhook($id: UUID!, $input: UpdateWebhookInput!) {
    updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} }
  }
`;

const DELETE_WEBHOOK = /* GraphQL */ `
  mutation DeleteWebhook($id: UUID!) {
    deleteWebhook(id: $id) { ${WEBHOOK_FIELDS} }
  }
`;

const ROTATE_WEBHOOK_SECRET = /* GraphQL */ `
  mutation RotateWebhookSecret($id: UUID!) {
    rotateWebhookSecret(id: $id) { ${WEBHOOK_FIELDS} secret }
  }
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

const SEND_WEBHOOK_TEST = /* GraphQL */ `
  mutation SendWebhookTest($id: UUID!) {
    sendWebhookTest(id: $id) { ${DELIVERY_FIELDS} }
  }
`;

const LIST_WEBHOOK_DELIVERIES = /* GraphQL */ `
  query ListWebhookDeliveries($webhookId: UUID!, $page: Int, $limit: Int) {
    webhookDeliveries(webhookId: $webhookId, page: $page, limit: $limit) {
      items { ${DELIVERY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const GET_WEBHOOK_DELIVERY = /* GraphQL */ `
  query GetWebhookDelivery($webhookId: UUID!, $id: UUID!) {
    webhookDelivery(webhookId: $webhookId, id: $id) {
      ${DELIVERY_FIELDS}
      payload { id event severity tenant { id name domain } details timestamp actionUrl }
    }
  }
`;

const RESEND_WEBHOOK_DELIVERY = /* GraphQL */ `
  mutation ResendWebhookDelivery($webhookId: UUID!, $id: UUID!) {
    resendWebhookDelivery(webhookId: $webhookId, id: $id) { ${DELIVERY_FIELDS} }
  }
`;

const DELIVERY_PARAMS = { id: 'webhookId', deliveryId: 'id' };

export const WEBHOOK_ROUTES: RouteDefinition[] = [
  { method: 'GET', path: '/webhooks', operation: LIST_WEBHOOKS, query: PAGE_QUERY, summary: 'list webhooks' },
  {
    method: 'POST',
    path: '/webhooks',
    operation: CREATE_WEBHOOK,
    body: 'input',
    status: 201,
    summary: 'create webhook (201; the signing secret is returned once, in secret; Admin key)',
  },
  {
    method: 'GET',
    path: '/webhooks/:id',
    operation: GET_WEBHOOK,
    params: { id: 'id' },
    summary: 'webhook details (extension)',
  },
  {
    method: 'PATCH',
    path: '/webhooks/:id',
    operation: UPDATE_WEBHOOK,
    params: { id: 'id' },
    body: 'input',
    summary: 'change the given fields; enabled: true re-enables (extension; Admin key)',
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id',
    operation: DELETE_WEBHOOK,
    params: { id: 'id' },
    summary: 'delete webhook with its delivery log (200 with the deleted webhook; Admin key)',
  },
  {
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    operation: ROTATE_WEBHOOK_SECRET,
    params: { id: 'id' },
    summary: `new signing secret, returned once; the old one signs beside it for ${SECRET_ROTATION_OVERLAP_HOURS} h (extension; Admin key)`,
  },
  {
    method: 'POST',
    path: '/webhooks/:id/test',
    operation: SEND_WEBHOOK_TEST,
    params: { id: 'id' },
    status: 202,
    summary: 'send a webhook.test event to this webhook (202 with the delivery; extension)',
  },
  {
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    operation: LIST_WEBHOOK_DELIVERIES,
    params: { id: 'webhookId' },
    query: PAGE_QUERY,
    summary: 'delivery log, newest first, each with its attempts (extension)',
  },
  {
    method: 'GET',
    path: '/webhooks/:id/deliveries/:deliveryId',
    operation: GET_WEBHOOK_DELIVERY,
    params: DELIVERY_PARAMS,
    summary: 'one delivery with its attempts and the event it carries (extension)',
  },
  {
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/resend',
    operation: RESEND_WEBHOOK_DELIVERY,
    params: DELIVERY_PARAMS,
    status: 202,
    summary: 'send a delivery again now, same event id (202; extension)',
  },
];
