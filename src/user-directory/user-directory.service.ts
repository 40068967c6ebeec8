import { InvalidRequestError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { tenantGroupCondition } from '../tenants/tenant-group-filter.js';
import type { AccountStatus, UserType } from '../users/user.enums.js';
import {
  MAX_SEARCH_LENGTH,
  MIN_SEARCH_LENGTH,
  type DirectoryUser,
  type DirectoryUserPage,
  type UserDirectorySearchArgs,
} from './user-directory.types.js';

interface DirectoryRow {
  id: string;
  tenant_id: string;
  tenant_name: string;
  display_name: string;
  user_principal_name: string;
  email: string | null;
  account_status: AccountStatus;
  user_type: UserType;
  sort_name: string;
}

/** Where the previous page ended: the folded display name and id of its last user. */
interface Cursor {
  name: string;
  id: string;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.name, cursor.id])).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^[0-9a-f-]{36}$/i.test(value[1])
    )
      return { name: value[0], id: value[1] };
  } catch {
    // falls through to the 400 below
  }
  throw InvalidRequestError.field('after', 'is not a cursor this search returned');
}

/**
 * "Find this person in any customer tenant" (issue #11 item 5; docs/user-directory.md): users (not deleted) of
 * every tenant of the caller's organization and environment, optionally one tenant group's, whose display name,
 * UPN or mail contains the term, ignoring case and accents. One statement per page: the trigram index on the
 * stored folded key, read by scoped_user_search, finds the matches; the page is keyset-ordered by the stored
 * folded display name (A to Z, accents ignored), then id.
 */
export class UserDirectoryService {
  constructor(private readonly ctx: ServiceContext) {}

  async search(args: UserDirectorySearchArgs): Promise<DirectoryUserPage> {
    const term = args.q.trim();
    if (term.length < MIN_SEARCH_LENGTH)
      throw InvalidRequestError.field('q', `must be at least ${MIN_SEARCH_LENGTH} characters long`);
    if (term.length > MAX_SEARCH_LENGTH)
      throw InvalidRequestError.field('q', `must be at most ${MAX_SEARCH_LENGTH} characters long`);
    const after = args.after ? decodeCursor(args.after) : null;
    const inGroup = await tenantGroupCondition(this.ctx, args.tenantGroupId, 'm.tenant_id');

    // The matches (m) come from scoped_user_search (migrations 20261219090000, 20261226090000): under row-level
    // security a LIKE written here could not use the trigram index and would read every user of the
    // organization. It folds the term with the index's own function, so both sides ignore case and accents
    // alike, leaves out deleted users and other scopes, and returns the columns the page shows (no second look
    // at users per match). The tenants join is under the policies and names the scope too.
    const conditions = [
      't.organization_id = ?',
      't.environment = ?',
      ...inGroup.map((condition) => `(${condition.sql})`),
    ];
    const params: unknown[] = [
      this.ctx.scope.organizationId,
      this.ctx.scope.environment,
      escapeLike(term),
      this.ctx.scope.organizationId,
      this.ctx.scope.environment,
      ...inGroup.flatMap((condition) => condition.params),
    ];
    if (after) {
      conditions.push('(m.sort_name, m.id) > (?, ?::uuid)');
      params.push(after.name, after.id);
    }
    const rows = await this.ctx.em.getConnection().execute<DirectoryRow[]>(
      `select m.id, m.tenant_id, t.name as tenant_name, m.display_name, m.user_principal_name, m.email,
              m.account_status, m.user_type, m.sort_name
         from scoped_user_search(?::uuid, ?, ?) m
         join tenants t on t.id = m.tenant_id
        where ${conditions.join(' and ')}
        order by m.sort_name, m.id
        limit ?`,
      [...params, args.limit + 1],
    );
    const hasMore = rows.length > args.limit;
    const page = rows.slice(0, args.limit);
    const last = page.at(-1);
    return {
      items: page.map(toDirectoryUser),
      pageInfo: {
        limit: args.limit,
        hasMore,
        nextCursor: hasMore && last ? encodeCursor({ name: last.sort_name, id: last.id }) : null,
      },
    };
  }
}

function toDirectoryUser(row: DirectoryRow): DirectoryUser {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    displayName: row.display_name,
    userPrincipalName: row.user_principal_name,
    email: row.email,
    accountStatus: row.account_status,
    userType: row.user_type,
  };
}
