import {
  CREATE_WEBHOOK,
  DELETE_WEBHOOK,
  GET_WEBHOOK,
  GET_WEBHOOK_DELIVERY,
  LIST_WEBHOOK_DELIVERIES,
  LIST_WEBHOOKS,
  RESEND_WEBHOOK_DELIVERY,
  ROTATE_WEBHOOK_SECRET,
  SEND_WEBHOOK_TEST,
  UPDATE_WEBHOOK,
} from '../operations/webhooks.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

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
    summary: 'new signing secret, returned once; the old one signs beside it for 24 h (extension; Admin key)',
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
