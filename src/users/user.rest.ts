import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { USER_FIELDS } from './user.fields.js';

export const LIST_USERS = /* GraphQL */ `
  query ListUsers($tenantId: UUID!, $page: Int, $limit: Int) {
    users(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const GET_USER = /* GraphQL */ `
  query GetUser($tenantId: UUID!, $id: UUID!) {
    user(tenantId: $tenantId, id: $id) { ${USER_FIELDS} }
  }
`;

/** The one response that carries `generatedPassword` (when the password was generated). */
const CREATE_USER = /* GraphQL */ `
  mutation CreateUser($tenantId: UUID!, $input: CreateUserInput!) {
    createUser(tenantId: $tenantId, input: $input) { ${USER_FIELDS} generatedPassword }
  }
`;

const UPDATE_USER = /* GraphQL */ `
  mutation UpdateUser($tenantId: UUID!, $id: UUID!, $input: UpdateUserInput!) {
    updateUser(tenantId: $tenantId, id: $id, input: $input) { ${USER_FIELDS} }
  }
`;

/** The deleted user, with when and by whom it was deleted. */
const DELETE_USER = /* GraphQL */ `
  mutation DeleteUser($tenantId: UUID!, $id: UUID!) {
    deleteUser(tenantId: $tenantId, id: $id) { ${USER_FIELDS} deletedAt deletedBy ${ACTOR_FIELDS} }
  }
`;

const USER_PARAMS = { id: 'tenantId', userId: 'id' };

export const USER_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/tenants/:id/users',
    operation: LIST_USERS,
    params: { id: 'tenantId' },
    query: PAGE_QUERY,
    summary: 'list tenant users (not deleted), newest first',
  },
  {
    method: 'GET',
    path: '/tenants/:id/users/:userId',
    operation: GET_USER,
    params: USER_PARAMS,
    summary: 'user details',
  },
  {
    method: 'POST',
    path: '/tenants/:id/users',
    operation: CREATE_USER,
    params: { id: 'tenantId' },
    body: 'input',
    status: 201,
    reachesCloud: true,
    summary: 'create user (201; a generated password is returned once, in generatedPassword)',
  },
  {
    method: 'PATCH',
    path: '/tenants/:id/users/:userId',
    operation: UPDATE_USER,
    params: USER_PARAMS,
    body: 'input',
    reachesCloud: true,
    summary: 'update the given fields of a user',
  },
  {
    method: 'DELETE',
    path: '/tenants/:id/users/:userId',
    operation: DELETE_USER,
    params: USER_PARAMS,
    summary: 'soft-delete a user (200 with the deleted user; Admin key)',
  },
];
