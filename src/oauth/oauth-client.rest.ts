import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const OAUTH_CLIENT_FIELDS = /* GraphQL */ `
  id
  clientId
  name
  redirectUris
  environment
  createdAt
  revokedAt
`;

const LIST_OAUTH_CLIENTS = /* GraphQL */ `
  query ListOAuthClients($page: Int, $limit: Int) {
    oauthClients(page: $page, limit: $limit) {
      items { ${OAUTH_CLIENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The secret is in `clientSecret`, this once. */
const CREATE_OAUTH_CLIENT = /* GraphQL */ `
  mutation CreateOAuthClient($input: CreateOAuthClientInput!) {
    createOAuthClient(input: $input) { client { ${OAUTH_CLIENT_FIELDS} } clientId clientSecret }
  }
`;

const REVOKE_OAUTH_CLIENT = /* GraphQL */ `
  mutation RevokeOAuthClient($id: UUID!) {
    revokeOAuthClient(id: $id) { ${OAUTH_CLIENT_FIELDS} }
  }
`;

/**
 * OAuth clients in the settings area (SPEC 5.2). Every route needs an Admin API key or an access token with the
 * `admin` scope; clients act in the caller's environment.
 */
export const OAUTH_CLIENT_ROUTES: RouteDefinition[] = [
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
];
