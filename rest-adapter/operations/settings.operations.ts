/** The GraphQL operations behind the settings routes: API keys, OAuth clients and members (Admin only). */
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

const OAUTH_CLIENT_FIELDS = /* GraphQL */ `
  id
  clientId
  name
  redirectUris
  environment
  createdAt
  revokedAt
`;

const MEMBER_FIELDS = /* GraphQL */ `
  id
  email
  role
  createdAt
  lastSignInAt
`;

export const LIST_API_KEYS = /* GraphQL */ `
  query ListApiKeys($page: Int, $limit: Int) {
    apiKeys(page: $page, limit: $limit) {
      items { ${API_KEY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The key itself is in `secret`, this once. */
export const CREATE_API_KEY = /* GraphQL */ `
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { apiKey { ${API_KEY_FIELDS} } secret }
  }
`;

export const UPDATE_API_KEY = /* GraphQL */ `
  mutation UpdateApiKey($id: UUID!, $input: UpdateApiKeyInput!) {
    updateApiKey(id: $id, input: $input) { ${API_KEY_FIELDS} }
  }
`;

export const REVOKE_API_KEY = /* GraphQL */ `
  mutation RevokeApiKey($id: UUID!) {
    revokeApiKey(id: $id) { ${API_KEY_FIELDS} }
  }
`;

export const LIST_OAUTH_CLIENTS = /* GraphQL */ `
  query ListOAuthClients($page: Int, $limit: Int) {
    oauthClients(page: $page, limit: $limit) {
      items { ${OAUTH_CLIENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The secret is in `clientSecret`, this once. */
export const CREATE_OAUTH_CLIENT = /* GraphQL */ `
  mutation CreateOAuthClient($input: CreateOAuthClientInput!) {
    createOAuthClient(input: $input) { client { ${OAUTH_CLIENT_FIELDS} } clientId clientSecret }
  }
`;

export const REVOKE_OAUTH_CLIENT = /* GraphQL */ `
  mutation RevokeOAuthClient($id: UUID!) {
    revokeOAuthClient(id: $id) { ${OAUTH_CLIENT_FIELDS} }
  }
`;

export const LIST_MEMBERS = /* GraphQL */ `
  query ListMembers($page: Int, $limit: Int) {
    members(page: $page, limit: $limit) {
      items { ${MEMBER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CREATE_MEMBER = /* GraphQL */ `
  mutation CreateMember($input: CreateMemberInput!) {
    createMember(input: $input) { ${MEMBER_FIELDS} }
  }
`;

export const UPDATE_MEMBER = /* GraphQL */ `
  mutation UpdateMember($id: UUID!, $input: UpdateMemberInput!) {
    updateMember(id: $id, input: $input) { ${MEMBER_FIELDS} }
  }
`;

export const REMOVE_MEMBER = /* GraphQL */ `
  mutation RemoveMember($id: UUID!) {
    removeMember(id: $id) { ${MEMBER_FIELDS} }
  }
`;
