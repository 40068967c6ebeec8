import {
  CONNECTOR_HISTORY,
  CONNECTOR_STATUS,
  CREATE_CONNECTOR,
  LIST_CONNECTORS,
  UPDATE_CONNECTOR,
} from '../operations/compliance.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * Compliance data connectors (SPEC 4.2; docs/compliance.md) in the tenant named by X-Tenant-Id (or
 * ?tenantId=). Reading needs `read:tenants`, creating and updating `write:tenants`. Credentials go in and
 * never come out.
 */
export const COMPLIANCE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/compliance/connectors',
    operation: LIST_CONNECTORS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'list connectors, newest first',
  },
  {
    method: 'POST',
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
