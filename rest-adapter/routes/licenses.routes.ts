import {
  ASSIGN_LICENSE,
  LIST_LICENSE_ASSIGNMENTS,
  LIST_LICENSES,
  REMOVE_LICENSE,
} from '../operations/licenses.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

export const LICENSE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/tenants/:id/licenses',
    operation: LIST_LICENSES,
    params: { id: 'tenantId' },
    query: PAGE_QUERY,
    summary: 'list available licenses (SKUs with seats), by name',
  },
  {
    method: 'GET',
    path: '/tenants/:id/licenses/assignments',
    operation: LIST_LICENSE_ASSIGNMENTS,
    params: { id: 'tenantId' },
    query: { ...PAGE_QUERY, userId: { type: 'string' }, skuId: { type: 'string' } },
    summary: 'list assignments, newest first (filters: userId, skuId)',
  },
  {
    method: 'POST',
    path: '/tenants/:id/licenses/assign',
    operation: ASSIGN_LICENSE,
    params: { id: 'tenantId' },
    body: 'input',
    summary: 'assign license (idempotent: 200 with the assignment, also when already held)',
  },
  {
    method: 'POST',
    path: '/tenants/:id/licenses/remove',
    operation: REMOVE_LICENSE,
    params: { id: 'tenantId' },
    body: 'input',
    summary: 'remove license (idempotent: 200, removed: false when not held)',
  },
];
