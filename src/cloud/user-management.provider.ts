/**
 * The part of the upstream cloud that user management needs beyond the directory (issue #14): passwords,
 * mailboxes (shared conversion, delegation, auto-replies), group membership removal and the personal file
 * storage (OneDrive) of a user. A tenant's client has it as `userManagement` (tenant-cloud.ts).
 */
export type CloudMailboxType = 'User' | 'Shared';

export interface CloudMailboxRecord {
  userExternalId: string;
  type: CloudMailboxType;
  /** Users given full access to the mailbox. */
  delegateExternalIds: string[];
  /** The automatic reply sent to every sender; null: none. */
  autoReply: string | null;
}

export interface CloudDriveItemRecord {
  externalId: string;
  /** Whose personal storage holds the file now. */
  ownerExternalId: string;
  name: string;
  /** The folder, from the drive root ("/Documents/Projects"). */
  path: string;
  sizeBytes: number;
  modifiedAt: string;
}

export interface CloudDriveAccessGrant {
  ownerExternalId: string;
  granteeExternalId: string;
  grantedAt: string;
}

export interface CloudPasswordReset {
  password: string;
  forceChangeAtNextSignIn: boolean;
}

/** The operations of UserManagementCloud, as `assertSupports` names them. */
export type UserManagementOperation = Exclude<keyof UserManagementCloud, 'assertSupports'>;

export interface UserManagementCloud {
  /**
   * Rejects with CloudError Unsupported (naming the capability) when the cloud has no API for one of
   * `operations`, calling nothing: a multi-step operation (an offboarding) refuses before its first change
   * rather than stop half-way at a step the cloud cannot do.
   */
  assertSupports(operations: readonly UserManagementOperation[]): Promise<void>;
  /** Sets a user's password (the caller has checked it against the tenant policy). */
  resetPassword(userExternalId: string, reset: CloudPasswordReset): Promise<void>;
  /** The user's mailbox (every member has one until purged). */
  getMailbox(userExternalId: string): Promise<CloudMailboxRecord>;
  /** Converts the mailbox to a shared mailbox, which needs no license. Idempotent. */
  convertMailboxToShared(userExternalId: string): Promise<CloudMailboxRecord>;
  /** Gives another user full access to the mailbox. Idempotent. */
  addMailboxDelegate(userExternalId: string, delegateExternalId: string): Promise<void>;
  /** Sets (or, with null, clears) the automatic reply. Idempotent. */
  setAutoReply(userExternalId: string, message: string | null): Promise<void>;
  /** Removes the user from the group; a user who is not a member is fine. */
  removeGroupMember(groupExternalId: string, userExternalId: string): Promise<void>;
  /**
   * Moves every file the user owns into the target's storage (under "/Transferred from <name>"), returning
   * how many moved. Idempotent: a second call moves nothing.
   */
  transferFiles(fromExternalId: string, toExternalId: string): Promise<number>;
  /** A page of the files in the user's personal storage (also while the user is soft-deleted), by path. */
  listDriveItems(
    userExternalId: string,
    page: { offset: number; limit: number },
  ): Promise<{ items: CloudDriveItemRecord[]; total: number }>;
  /** Gives a user access to another user's personal storage. Idempotent (the first grant is kept). */
  grantDriveAccess(ownerExternalId: string, granteeExternalId: string): Promise<CloudDriveAccessGrant>;
}
