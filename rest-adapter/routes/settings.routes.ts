import {
  CREATE_API_KEY,
  CREATE_MEMBER,
  CREATE_OAUTH_CLIENT,
  LIST_API_KEYS,
  LIST_MEMBERS,
  LIST_OAUTH_CLIENTS,
  REMOVE_MEMBER,
  REVOKE_API_KEY,
  REVOKE_OAUTH_CLIENT,
  UPDATE_API_KEY,
  UPDATE_MEMBER,
} from '../operations/settings.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * The settings area (SPEC 5.1: keys are created and revoked there). Every route needs an Admin API key
 * or an access token with the `admin` scope; keys and clients act in the caller's environment.
 */
export const SETTINGS_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/settings/api-keys',
    operation: LIST_API_KEYS,
    query: PAGE_QUERY,
    summary: 'list API keys (name, level, prefix, last four, created, last used, revoked; Admin)',
  },
  {
    method: 'POST',
    path: '/settings/api-keys',
    operation: CREATE_API_KEY,
    body: 'input',
    status: 201,
    summary:
      'create an API key {name, level, allowedIps?}; 201 with {apiKey, secret}, the secret shown once (Admin)',
  },
  {
    method: 'PATCH',
    path: '/settings/api-keys/:id',
    operation: UPDATE_API_KEY,
    params: { id: 'id' },
    body: 'input',
    summary: 'rename a key or replace its IP allowlist {name?, allowedIps?}; 409 when revoked (Admin)',
  },
  {
    method: 'DELETE',
    path: '/settings/api-keys/:id',
    operation: REVOKE_API_KEY,
    params: { id: 'id' },
    summary: 'revoke an API key: the next request with it gets 401 (Admin)',
  },
  {
    method: 'GET',
    path: '/settings/oauth-clients',
    operation: LIST_OAUTH_CLIENTS,
    query: PAGE_QUERY,
    summary: 'list OAuth clients (Admin)',
  },
  {
    method: 'POST',
    path: '/settings/oauth-clients',
    operation: CREATE_OAUTH_CLIENT,
    body: 'input',
    status: 201,
    summary:
      'register an OAuth client {name, redirectUris}; 201 with {client, clientId, clientSecret} (Admin)',
  },
  {
    method: 'DELETE',
    path: '/settings/oauth-clients/:id',
    operation: REVOKE_OAUTH_CLIENT,
    params: { id: 'id' },
    summary: 'revoke an OAuth client and every token it holds (Admin)',
  },
  {
    method: 'GET',
    path: '/settings/members',
    operation: LIST_MEMBERS,
    query: PAGE_QUERY,
    summary: 'list the members who sign in on the consent page (Admin)',
  },
  {
    method: 'POST',
    path: '/settings/members',
    operation: CREATE_MEMBER,
    body: 'input',
    status: 201,
    summary:
      'add a member {email, password, role?}; 409 when the email is taken; an owner only by an owner (Admin)',
  },
  {
    method: 'PATCH',
    path: '/settings/members/:id',
    operation: UPDATE_MEMBER,
    params: { id: 'id' },
    body: 'input',
    summary:
      "change a member's role {role}; owners made or unmade only by an owner; 409 for the last owner (Admin)",
  },
  {
    method: 'DELETE',
    path: '/settings/members/:id',
    operation: REMOVE_MEMBER,
    params: { id: 'id' },
    summary: 'remove a member and the tokens they granted; 409 for the last owner (Admin)',
  },
];
