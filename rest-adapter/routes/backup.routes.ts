import {
  BROWSE_BACKUP_SNAPSHOT,
  CANCEL_RESTORE,
  GET_RESTORE_JOB,
  LIST_BACKUP_SNAPSHOTS,
  RESTORE_HISTORY,
  START_RESTORE,
} from '../operations/backup.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * Backup and restore (SPEC 4.2, 4.4; docs/backup.md) in the tenant named by X-Tenant-Id (or ?tenantId=).
 * Reading needs `read:tenants`, restoring and cancelling `write:tenants`. `/restore/history` comes before
 * `/restore/:jobId` so "history" is never taken for a job id. The export download link
 * (/api/backup/restore/:jobId/download) is signed and served outside this table (src/backup/restore-download.ts).
 */
export const BACKUP_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/backup/snapshots',
    operation: LIST_BACKUP_SNAPSHOTS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      workload: { type: 'string' },
      userId: { type: 'string' },
      resourceId: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
    },
    summary:
      'list backup snapshots within the retention window, newest first (filters: workload, userId, resourceId, from, to)',
  },
  {
    method: 'GET',
    path: '/backup/snapshots/:id/items',
    operation: BROWSE_BACKUP_SNAPSHOT,
    tenant: 'tenantId',
    params: { id: 'id' },
    query: { ...PAGE_QUERY, parentId: { type: 'string' } },
    summary:
      "browse a snapshot's item tree: top-level containers, or a container's items with ?parentId= (extension)",
  },
  {
    method: 'POST',
    path: '/backup/restore',
    operation: START_RESTORE,
    tenant: 'tenantId',
    body: 'input',
    status: 202,
    summary: 'initiate restore (202 with the Queued job; it runs in the background)',
  },
  {
    method: 'GET',
    path: '/backup/restore/history',
    operation: RESTORE_HISTORY,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'completed restores (every finished one), the latest first',
  },
  {
    method: 'GET',
    path: '/backup/restore/:jobId',
    operation: GET_RESTORE_JOB,
    tenant: 'tenantId',
    params: { jobId: 'id' },
    query: PAGE_QUERY,
    summary: 'restore job status, progress and item results (items paged by page/limit)',
  },
  {
    method: 'POST',
    path: '/backup/restore/:jobId/cancel',
    operation: CANCEL_RESTORE,
    tenant: 'tenantId',
    params: { jobId: 'id' },
    summary: 'cancel a Queued or Running restore (extension); 409 once finished',
  },
];
