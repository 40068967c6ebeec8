/**
 * The GraphQL names and descriptions of the enums of backup.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import {
  BackupWorkload,
  RestoreType,
  RestoreTargetType,
  ConflictPolicy,
  RestoreJobStatus,
  RestoreItemStatus,
  BackupItemKind,
} from './backup.enums.js';

registerEnumType(BackupWorkload, {
  name: 'BackupWorkload',
  description: 'Mailbox, Personal file storage, Site collaboration or Team chat (SPEC 4.4)',
});

registerEnumType(RestoreType, {
  name: 'RestoreType',
  description:
    'Granular item (itemIds: messages or files), Container (itemIds: folders, libraries or channels), ' +
    'Point-in-time (the whole mailbox, drive, site or team as in the snapshot), Cross-tenant (into another ' +
    'tenant of the organization)',
});

registerEnumType(RestoreTargetType, {
  name: 'RestoreTargetType',
  description: 'Original location, Different location (target.location) or Export (a download link)',
});

registerEnumType(ConflictPolicy, {
  name: 'ConflictPolicy',
  description: 'Skip (default: the existing item stays), Overwrite, or Keep both (restored under a new name)',
});

registerEnumType(RestoreJobStatus, {
  name: 'RestoreJobStatus',
  description:
    'Queued, Running, Completed (every item restored or skipped), CompletedWithErrors (some items failed), ' +
    'Failed (nothing could be restored, see failureReason) or Cancelled',
});

registerEnumType(RestoreItemStatus, {
  name: 'RestoreItemStatus',
  description:
    'Pending, Restored, Skipped (it exists at the target and the conflict policy is Skip), Failed (with a ' +
    'reason) or Cancelled (the job was cancelled before its turn)',
});

registerEnumType(BackupItemKind, {
  name: 'BackupItemKind',
  description: 'Container (mailbox folder, drive folder, library, channel) or Item (message, file, post)',
});
