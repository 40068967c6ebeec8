import type { FeatureModule } from '../core/feature-module.js';
import { GUEST_ROUTES } from './guest.rest.js';
import { DELETED_USER_ROUTES } from './deleted-user.rest.js';
import { USER_ROUTES } from './user.rest.js';
import {
  DELETED_USER_PURGE_CRON,
  DELETED_USER_PURGE_TASK,
  deletedUserPurgeTask,
} from './deleted-user-purge.task.js';
import { DeletedUserResolver } from './deleted-user.resolver.js';
import { Group, GroupMembership } from './group.entity.js';
import { GuestResolver } from './guest.resolver.js';
import { User } from './user.entity.js';
import { UserResolver } from './user.resolver.js';
import { UserSyncState } from './user-sync-state.entity.js';
import { usersSyncStep } from './user-sync-step.js';

/** A tenant's users, guests, groups and the recycle bin of deleted users (SPEC 4.1, 4.2 identity). */
export const usersModule: FeatureModule = {
  name: 'users',
  resolvers: [UserResolver, DeletedUserResolver, GuestResolver],
  entities: [User, Group, GroupMembership, UserSyncState],
  tasks: { [DELETED_USER_PURGE_TASK]: deletedUserPurgeTask },
  crons: [DELETED_USER_PURGE_CRON],
  routes: { v1: USER_ROUTES, api: [...GUEST_ROUTES, ...DELETED_USER_ROUTES] },
  eventKinds: [
    'user.created',
    'user.updated',
    'user.deleted',
    'user.restored',
    'user.purged',
    'guest.invited',
  ],
  syncStep: usersSyncStep,
};
