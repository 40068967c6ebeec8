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
