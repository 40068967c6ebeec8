import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const MEMBER_FIELDS = /* GraphQL */ `
  id
  email
  role
  createdAt
  lastSignInAt
`;

const LIST_MEMBERS = /* GraphQL */ `
  query ListMembers($page: Int, $limit: Int) {
    members(page: $page, limit: $limit) {
      items { ${MEMBER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_MEMBER = /* GraphQL */ `
  mutation CreateMember($input: CreateMemberInput!) {
    createMember(input: $input) { ${MEMBER_FIELDS} }
  }
`;

const UPDATE_MEMBER = /* GraphQL */ `
  mutation UpdateMember($id: UUID!, $input: UpdateMemberInput!) {
    updateMember(id: $id, input: $input) { ${MEMBER_FIELDS} }
  }
`;

const REMOVE_MEMBER = /* GraphQL */ `
  mutation RemoveMember($id: UUID!) {
    removeMember(id: $id) { ${MEMBER_FIELDS} }
  }
`;

/**
 * Members in the settings area. Every route needs an Admin API key or an access token with the `admin` scope;
 * changing members needs a live credential (docs/security-model.md).
 */
export const MEMBER_ROUTES: RouteDefinition[] = [
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
