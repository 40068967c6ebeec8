import { type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';

const OFFBOARDING_FIELDS = /* GraphQL */ `
  id
  tenantId
  userId
  status
  options
  steps { name status startedAt finishedAt error result attempts retryAt }
  failureReason
  createdBy ${ACTOR_FIELDS}
  createdAt
  startedAt
  finishedAt
`;

const OFFBOARD_USER = /* GraphQL */ `
  mutation OffboardUser($tenantId: UUID!, $userId: UUID!, $input: OffboardUserInput) {
    offboardUser(tenantId: $tenantId, userId: $userId, input: $input) { ${OFFBOARDING_FIELDS} }
  }
`;

const GET_USER_OFFBOARDING = /* GraphQL */ `
  query GetUserOffboarding($tenantId: UUID!, $userId: UUID!, $id: UUID!) {
    userOffboarding(tenantId: $tenantId, userId: $userId, id: $id) { ${OFFBOARDING_FIELDS} }
  }
`;

const RETRY_USER_OFFBOARDING = /* GraphQL */ `
  mutation RetryUserOffboarding($tenantId: UUID!, $userId: UUID!, $id: UUID!) {
    retryUserOffboarding(tenantId: $tenantId, userId: $userId, id: $id) { ${OFFBOARDING_FIELDS} }
  }
`;

const BASE = '/user-management-identity/users';

/**
 * Offboarding (SPEC 4.2; docs/user-management.md) in the tenant named by X-Tenant-Id: a job of steps, readable
 * and retryable from its failed step. Reading needs `read:users`, starting and retrying `write:users`.
 */
export const OFFBOARDING_ROUTES: RouteDefinition[] = [
  {
    method: 'POST',
    path: `${BASE}/:userId/offboard`,
    operation: OFFBOARD_USER,
    tenant: 'tenantId',
    params: { userId: 'userId' },
    body: 'input',
    status: 202,
    // Checks, before anything starts, that the cloud can do every step asked for (501 otherwise).
    reachesCloud: true,
    summary:
      'start the offboarding job {convertMailboxToShared? (true), delegateMailboxTo?, autoReplyMessage?, transferFilesTo? ("manager" or a user id), removeLicenses? (true), removeFromGroups? (true), deleteUser? (false, Admin key)}; 409 while one runs; 501 when the cloud cannot do a step asked for (Microsoft 365: the mailbox conversion), nothing started',
  },
  {
    method: 'GET',
    path: `${BASE}/:userId/offboard/:offboardingId`,
    operation: GET_USER_OFFBOARDING,
    tenant: 'tenantId',
    params: { userId: 'userId', offboardingId: 'id' },
    summary:
      'an offboarding with each step’s status, times, attempts, result and error (a step Waiting for a throttled cloud says until when: retryAt)',
  },
  {
    method: 'POST',
    path: `${BASE}/:userId/offboard/:offboardingId/retry`,
    operation: RETRY_USER_OFFBOARDING,
    tenant: 'tenantId',
    params: { userId: 'userId', offboardingId: 'id' },
    status: 202,
    reachesCloud: true,
    summary:
      'run a Failed offboarding again from its failed step (finished steps are not repeated); 409 unless Failed',
  },
];
