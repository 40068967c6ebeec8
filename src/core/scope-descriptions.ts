import { Permission } from './permissions.js';

/**
 * Every scope a client may ask for (SPEC 5.2 and 5.3), with what the consent page tells the member.
 * A scope is a Permission: an access token's permissions are its scopes (write implies read).
 */
export const SCOPE_DESCRIPTIONS: Record<Permission, string> = {
  [Permission.READ_TENANTS]:
    'View your tenants and their security, devices, backup, compliance, mail and information barriers',
  [Permission.WRITE_TENANTS]:
    'Change tenants and their feature areas (sync, alerts, devices, backups...), including deletions there',
  [Permission.READ_USERS]: 'View users, guests, contacts and deleted users of your tenants',
  [Permission.WRITE_USERS]: 'Create, change and delete users, guests and contacts of your tenants',
  [Permission.READ_LICENSES]: 'View the licenses of your tenants and who holds them',
  [Permission.WRITE_LICENSES]: 'Assign and remove licenses',
  [Permission.MSP_READ]: 'View the provider portal dashboard across all your tenants',
  [Permission.ADMIN]:
    'Full administrative access: everything above, plus API keys, webhooks, integrations, members and OAuth clients',
};
