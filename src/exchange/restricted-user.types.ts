import { PageOf } from '../core/pagination.js';
import { RestrictedUser } from './restricted-user.entity.js';

export const RestrictedUserPage = PageOf(RestrictedUser, 'RestrictedUser');
