import { GET_TENANT, GET_TENANT_SYNC, LIST_TENANTS, SYNC_TENANT } from '../operations/tenants.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

export const TENANT_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/tenants',
    operation: LIST_TENANTS,
    query: { ...PAGE_QUERY, tenantGroupId: { type: 'string' } },
    summary: "list tenants, newest first; ?tenantGroupId= keeps a tenant group's members",
  },
  {
    method: 'GET',
    path: '/tenants/:id',
    operation: GET_TENANT,
    params: { id: 'id' },
    summary: 'tenant details',
  },
  {
    method: 'POST',
    path: '/tenants/:id/sync',
    operation: SYNC_TENANT,
    params: { id: 'id' },
    status: 202,
    summary: 'trigger tenant sync (202 with the sync job)',
  },
  {
    method: 'GET',
    path: '/tenants/:id/syncs/:syncId',
    operation: GET_TENANT_SYNC,
    params: { id: 'tenantId', syncId: 'id' },
    summary: 'sync job status and progress (extension)',
  },
];
