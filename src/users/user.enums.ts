import { registerEnumType } from 'type-graphql';

export enum AccountStatus {
  ENABLED = 'Enabled',
  DISABLED = 'Disabled',
}
registerEnumType(AccountStatus, { name: 'AccountStatus', description: 'Disabled accounts cannot sign in' });

export enum MfaStatus {
  ENABLED = 'Enabled',
  DISABLED = 'Disabled',
  ENFORCED = 'Enforced',
}
registerEnumType(MfaStatus, { name: 'MfaStatus' });

export enum UserType {
  MEMBER = 'Member',
  GUEST = 'Guest',
}
registerEnumType(UserType, { name: 'UserType' });

export enum UserSource {
  CLOUD = 'Cloud',
  SYNCED = 'Synced',
}
registerEnumType(UserSource, {
  name: 'UserSource',
  description: 'Synced users come from an on-premises directory and their synced attributes are read-only',
});

/** How a guest came into the tenant (SPEC 2.6 "Guest user"). */
export enum GuestSource {
  INVITED_USER = 'Invited user',
  B2B_COLLABORATION = 'B2B collaboration',
  EXTERNAL_DIRECTORY = 'External directory',
}
registerEnumType(GuestSource, {
  name: 'GuestSource',
  description: 'How a guest came into the tenant: invited here, B2B collaboration, or an external directory',
});

/** SPEC 2.6 / 3.3: a guest's invitation; N/A for guests that came in without one. */
export enum InvitationStatus {
  PENDING = 'Pending',
  ACCEPTED = 'Accepted',
  NOT_APPLICABLE = 'N/A',
}
registerEnumType(InvitationStatus, {
  name: 'GuestInvitationStatus',
  description: 'Pending until the guest redeems the invitation; N/A for guests added without one',
  valuesConfig: { NOT_APPLICABLE: { description: 'Shown as "N/A" on REST' } },
});
