import {
  CONNECT_INTEGRATION,
  DISCONNECT_INTEGRATION,
  LIST_INTEGRATIONS,
} from '../operations/integrations.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

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
