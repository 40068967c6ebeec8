import {
  CREATE_USER,
  DELETE_USER,
  GET_USER,
  LIST_USERS,
  UPDATE_USER,
} from '../operations/users.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

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
    summary: 'create user (201; a generated password is returned once, in generatedPassword)',
  },
  {
    method: 'PATCH',
    path: '/tenants/:id/users/:userId',
    operation: UPDATE_USER,
    params: USER_PARAMS,
    body: 'input',
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
