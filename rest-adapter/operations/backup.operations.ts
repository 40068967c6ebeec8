import { ACTOR_FIELDS } from './actor.fields.js';
/** The GraphQL operations behind the backup routes of SPEC 4.2 (snapshots and restores, SPEC 2.6, 4.4). */
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

export const LIST_BACKUP_SNAPSHOTS = /* GraphQL */ `
  query ListBackupSnapshots($tenantId: UUID!, $page: Int, $limit: Int, $workload: BackupWorkload,
      $userId: UUID, $resourceId: String, $from: DateTime, $to: DateTime) {
    backupSnapshots(tenantId: $tenantId, page: $page, limit: $limit, workload: $workload, userId: $userId,
        resourceId: $resourceId, from: $from, to: $to) {
      items { ${SNAPSHOT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const BROWSE_BACKUP_SNAPSHOT = /* GraphQL */ `
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

export const START_RESTORE = /* GraphQL */ `
  mutation StartRestore($tenantId: UUID!, $input: StartRestoreInput!) {
    startRestore(tenantId: $tenantId, input: $input) { ${RESTORE_JOB_FIELDS} }
  }
`;

export const GET_RESTORE_JOB = /* GraphQL */ `
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

export const RESTORE_HISTORY = /* GraphQL */ `
  query RestoreHistory($tenantId: UUID!, $page: Int, $limit: Int) {
    restoreHistory(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${RESTORE_JOB_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CANCEL_RESTORE = /* GraphQL */ `
  mutation CancelRestore($tenantId: UUID!, $id: UUID!) {
    cancelRestore(tenantId: $tenantId, id: $id) { ${RESTORE_JOB_FIELDS} }
  }
`;
