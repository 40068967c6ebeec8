import {
  CREATE_CONTACT,
  DELETE_CONTACT,
  IMPORT_CONTACTS,
  INVITE_GUEST,
  LIST_CONTACTS,
  LIST_DELETED_USERS,
  LIST_GUESTS,
  LIST_STALE_GUESTS,
  PERMANENTLY_DELETE_USER,
  REMOVE_GUEST,
  RESEND_GUEST_INVITATION,
  RESTORE_USER,
  UPDATE_CONTACT,
} from '../operations/identity.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * Identity (SPEC 4.2) in the tenant named by X-Tenant-Id (or ?tenantId=): guests (SPEC 2.6, 3.3) and the
 * deleted users (SPEC 3.4), mail contacts (SPEC 2.6 "Contact"). Reading needs `read:users`; inviting, resending and restoring `write:users`;
 * every DELETE (guest removal, permanent deletion, contact deletion) an Admin key (or `write:users` on an access token).
 */
export const IDENTITY_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/identity/users',
    operation: LIST_GUESTS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      type: { type: 'string' },
      invitationStatus: { type: 'string' },
    },
    summary:
      'list guest users, newest first (?type=guest required; optional ?invitationStatus=Pending|Accepted|N/A)',
  },
  {
    method: 'POST',
    path: '/identity/users/invite',
    operation: INVITE_GUEST,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary:
      'invite a guest {email, displayName?, personalMessage?, redirectUrl?, sendInvitation? (default true)}; 409 when the address is already in the tenant',
  },
  {
    method: 'POST',
    path: '/identity/users/:id/resend-invite',
    operation: RESEND_GUEST_INVITATION,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'mail a guest invitation again; 409 unless it is Pending',
  },
  {
    method: 'GET',
    path: '/identity/users/stale-guests',
    operation: LIST_STALE_GUESTS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary:
      'guests with no sign-in for 90+ days (or never, 90+ days after accepting or being invited), longest inactive first, with reason',
  },
  {
    method: 'DELETE',
    path: '/identity/users/:id',
    operation: REMOVE_GUEST,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary:
      'remove a guest user: soft delete, restorable for 30 days (Admin key); 409 for a member (use DELETE /v1/tenants/:id/users/:userId)',
  },
  {
    method: 'GET',
    path: '/identity/users/deleted',
    operation: LIST_DELETED_USERS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary:
      'list deleted users, newest deletion first: displayName, userPrincipalName, userType, deletedAt, deletedBy, daysRemaining, hadLicenses',
  },
  {
    method: 'POST',
    path: '/identity/users/:id/restore',
    operation: RESTORE_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    summary:
      'restore a deleted user within 30 days {userPrincipalName?}; 409 after the window, for an active user, or when its UPN was reused and no new one is given',
  },
  {
    method: 'DELETE',
    path: '/identity/users/:id/permanent',
    operation: PERMANENTLY_DELETE_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'permanently delete a deleted user (irreversible; Admin key); 409 for an active user',
  },
  {
    method: 'GET',
    path: '/identity/contacts',
    operation: LIST_CONTACTS,
    tenant: 'tenantId',
    query: { ...PAGE_QUERY, search: { type: 'string' } },
    summary: 'list mail contacts by display name (A to Z); ?search= matches part of a name or the address',
  },
  {
    method: 'POST',
    path: '/identity/contacts',
    operation: CREATE_CONTACT,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary:
      'create a contact {firstName, lastName, displayName, email, company?, jobTitle?, businessPhone?, mobilePhone?, department?, showInAddressList? (default true), manager?, street?, city?, state?, postalCode?, country?, notes?, emailAliases?}; 409 when the address is already a contact',
  },
  {
    method: 'PUT',
    path: '/identity/contacts/:id',
    operation: UPDATE_CONTACT,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    summary:
      'replace a contact (same body as create; an optional field left out is cleared); 409 when the address is another contact’s',
  },
  {
    method: 'DELETE',
    path: '/identity/contacts/:id',
    operation: DELETE_CONTACT,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'delete a contact for good (Admin key)',
  },
  {
    method: 'POST',
    path: '/identity/contacts/bulk',
    operation: IMPORT_CONTACTS,
    tenant: 'tenantId',
    body: 'spread',
    csvBody: 'csv',
    summary:
      'import contacts from CSV (Content-Type: text/csv, or JSON {csv}): header DisplayName, EmailAddress, FirstName, LastName[, Company, JobTitle, BusinessPhone], at most 1000 rows; an invalid row refuses the file (400, nothing written), addresses already present are skipped',
  },
];
