export enum AccountStatus {
  ENABLED = 'Enabled',
  DISABLED = 'Disabled',
}

export enum MfaStatus {
  ENABLED = 'Enabled',
  DISABLED = 'Disabled',
  ENFORCED = 'Enforced',
}

export enum UserType {
  MEMBER = 'Member',
  GUEST = 'Guest',
}

export enum UserSource {
  CLOUD = 'Cloud',
  SYNCED = 'Synced',
}

/** How a guest came into the tenant (SPEC 2.6 "Guest user"). */
export enum GuestSource {
  INVITED_USER = 'Invited user',
  B2B_COLLABORATION = 'B2B collaboration',
  EXTERNAL_DIRECTORY = 'External directory',
}

/** SPEC 2.6 / 3.3: a guest's invitation; N/A for guests that came in without one. */
export enum InvitationStatus {
  PENDING = 'Pending',
  ACCEPTED = 'Accepted',
  NOT_APPLICABLE = 'N/A',
}
