import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const API_KEY_FIELDS = /* GraphQL */ `
  id
  name
  level
  prefix
  lastFour
  allowedIps
  createdAt
  lastUsedAt
  revokedAt
`;

const LIST_API_KEYS = /* GraphQL */ `
  query ListApiKeys($page: Int, $limit: Int) {
    apiKeys(page: $page, limit: $limit) {
      items { ${API_KEY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The key itself is in `secret`, this once. */
const CREATE_API_KEY = /* GraphQL */ `
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { apiKey { ${API_KEY_FIELDS} } secret }
  }
`;

const UPDATE_API_KEY = /* GraphQL */ `
  mutation UpdateApiKey($id: UUID!, $input: UpdateApiKeyInput!) {
    updateApiKey(id: $id, input: $input) { ${API_KEY_FIELDS} }
  }
`;

const REVOKE_API_KEY = /* GraphQL */ `
  mutation RevokeApiKey($id: UUID!) {
    revokeApiKey(id: $id) { ${API_KEY_FIELDS} }
  }
`;

/**
 * API keys in the settings area (SPEC 5.1: keys are created and revoked there). Every route needs an Admin API key
 * or an access token with the `admin` scope; keys act in the caller's environment.
 */
export const API_KEY_ROUTES: RouteDefinition[] = [
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
];
