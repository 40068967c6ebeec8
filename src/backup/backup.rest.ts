import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';

const SNAPSHOT_FIELDS = /* GraphQL */ `
  id
  tenantId
  workload
  resourceId
  resourceName
  userId
  takenAt
  expiresAt
  itemCount
`;

const LIST_BACKUP_SNAPSHOTS = /* GraphQL */ `
  query ListBackupSnapshots($tenantId: UUID!, $page: Int, $limit: Int, $workload: BackupWorkload,
      $userId: UUID, $resourceId: String, $from: DateTime, $to: DateTime) {
    backupSnapshots(tenantId: $tenantId, page: $page, limit: $limit, workload: $workload, userId: $userId,
        resourceId: $resourceId, from: $from, to: $to) {
      items { ${SNAPSHOT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const BROWSE_BACKUP_SNAPSHOT = /* GraphQL */ `
  query BrowseBackupSnapshot($tenantId: UUID!, $id: UUID!, $parentId: String, $page: Int, $limit: Int) {
    backupSnapshotItems(tenantId: $tenantId, id: $id, parentId: $parentId, page: $page, limit: $limit) {
      items {
        itemId
        parentId
        name
        kind
        itemType
        path
        sizeBytes
        childCount
        modifiedAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

const RESTORE_JOB_FIELDS = /* GraphQL */ `
  id
  tenantId
  workload
  restoreType
  snapshotId
  snapshotTakenAt
  resourceName
  targetType
  targetTenantId
  targetLocation
  conflictPolicy
  status
  itemCount
  processedCount
  restoredCount
  skippedCount
  failedCount
  progress { itemsProcessed itemsTotal percent }
  initiatedBy ${ACTOR_FIELDS}
  createdAt
  startedAt
  completedAt
  failureReason
  download { url expiresAt }
`;

const START_RESTORE = /* GraphQL */ `
  mutation StartRestore($tenantId: UUID!, $input: StartRestoreInput!) {
    startRestore(tenantId: $tenantId, input: $input) { ${RESTORE_JOB_FIELDS} }
  }
`;

const RESTORE_HISTORY = /* GraphQL */ `
  query RestoreHistory($tenantId: UUID!, $page: Int, $limit: Int) {
    restoreHistory(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${RESTORE_JOB_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const ITEM_RESULT_FIELDS = /* GraphQL */ `
  ordinal
  itemId
  name
  path
  itemType
  status
  detail
  restoredTo
  processedAt
`;

const GET_RESTORE_JOB = /* GraphQL */ `
  query GetRestoreJob($tenantId: UUID!, $id: UUID!, $page: Int, $limit: Int) {
    restoreJob(tenantId: $tenantId, id: $id) {
      ${RESTORE_JOB_FIELDS}
      items(page: $page, limit: $limit) {
        items { ${ITEM_RESULT_FIELDS} }
        pageInfo { page limit total }
      }
    }
  }
`;

const CANCEL_RESTORE = /* GraphQL */ `
  mutation CancelRestore($tenantId: UUID!, $id: UUID!) {
    cancelRestore(tenantId: $tenantId, id: $id) { ${RESTORE_JOB_FIELDS} }
  }
`;

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
      from: { type: 'dateTime' },
      to: { type: 'dateTimeUntil' },
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
