/**
 * The GraphQL names and descriptions of the enums of user.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import {
  AccountStatus,
  MfaStatus,
  UserType,
  UserSource,
  GuestSource,
  InvitationStatus,
} from './user.enums.js';

registerEnumType(AccountStatus, { name: 'AccountStatus', description: 'Disabled accounts cannot sign in' });

registerEnumType(MfaStatus, { name: 'MfaStatus' });

registerEnumType(UserType, { name: 'UserType' });

registerEnumType(UserSource, {
  name: 'UserSource',
  description: 'Synced users come from an on-premises directory and their synced attributes are read-only',
});

registerEnumType(GuestSource, {
  name: 'GuestSource',
  description: 'How a guest came into the tenant: invited here, B2B collaboration, or an external directory',
});

registerEnumType(InvitationStatus, {
  name: 'GuestInvitationStatus',
  description: 'Pending until the guest redeems the invitation; N/A for guests added without one',
  valuesConfig: { NOT_APPLICABLE: { description: 'Shown as "N/A" on REST' } },
});
