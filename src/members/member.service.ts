import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { ConflictError, type FieldProblem, ForbiddenError, invalid, NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { Viewer } from '../core/viewer.js';
import { pageOffset } from '../core/pagination.js';
import { Member, MemberRole } from './member.entity.js';
import {
  dummyPasswordHash,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  verifyPassword,
} from './member.password.js';

export interface NewMember {
  email: string;
  password: string;
  role?: MemberRole;
}

export interface MemberServiceContext {
  em: EntityManager;
  /** Members belong to the organization, whatever the caller's environment. */
  scope: { organizationId: string };
  clock: Clock;
  /**
   * Who is acting over the API. Absent for the CLI and the seed: the operator of the server, who may
   * manage owners.
   */
  viewer?: Viewer;
  /** How a password is checked; tests wrap the real one to see that every sign-in does the same work. */
  passwordCheck?: PasswordCheck;
}

export type PasswordCheck = (password: string, storedHash: string) => Promise<boolean>;

const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Emails are compared in lower case: `Ana@Example.com` and `ana@example.com` are one member. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function problemsOf(input: NewMember): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const email = normalizeEmail(input.email);
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email))
    problems.push({ field: 'email', problem: 'must be an email address (name@domain)' });
  const length = [...input.password].length;
  if (length < MIN_PASSWORD_LENGTH)
    problems.push({ field: 'password', problem: `must be at least ${MIN_PASSWORD_LENGTH} characters long` });
  if (length > MAX_PASSWORD_LENGTH)
    problems.push({ field: 'password', problem: `must be at most ${MAX_PASSWORD_LENGTH} characters long` });
  return problems;
}

/** Members of one organization: created by the CLI and GraphQL, checked by the OAuth sign-in page. */
export class MemberService {
  constructor(private readonly ctx: MemberServiceContext) {}

  async create(input: NewMember): Promise<Member> {
    const problems = problemsOf(input);
    if (problems.length > 0) {
      throw invalid(problems, 'member');
    }
    const { em, scope, clock } = this.ctx;
    const role = input.role ?? MemberRole.MEMBER;
    if (role === MemberRole.OWNER) await this.assertOwnerAuthority('create an owner');
    const email = normalizeEmail(input.email);
    if (await em.count(Member, { organizationId: scope.organizationId, email })) {
      throw new ConflictError(`A member with the email ${email} already exists`, { field: 'email' });
    }
    const member = new Member({
      organizationId: scope.organizationId,
      email,
      role,
      passwordHash: await hashPassword(input.password),
      createdAt: clock.now(),
    });
    await em.persist(member).flush();
    return member;
  }

  async list(args: PageArgs): Promise<Page<Member>> {
    const [items, total] = await this.ctx.em.findAndCount(
      Member,
      { organizationId: this.ctx.scope.organizationId },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: args.limit, offset: pageOffset(args) },
    );
    return { items, pageInfo: { page: args.page, limit: args.limit, total } };
  }

  /**
   * Changes a member's role. Their existing tokens follow at once: a token keeps only what the member's
   * current role may grant (a member demoted to `member` loses `admin`). The last owner stays an owner.
   */
  async updateRole(id: string, role: MemberRole): Promise<Member> {
    return this.ctx.em.transactional(async (em) => {
      const member = await this.findForChange(em, id);
      if (member.role === role) return member;
      if (member.role === MemberRole.OWNER || role === MemberRole.OWNER)
        await this.assertOwnerAuthority(
          role === MemberRole.OWNER ? 'make someone an owner' : 'demote an owner',
        );
      if (member.role === MemberRole.OWNER) await this.assertNotLastOwner(em, member, 'demoted');
      member.role = role;
      await em.flush();
      return member;
    });
  }

  /**
   * Removes a member; their authorization codes and tokens go with them in the same transaction.
   * The last owner stays: an organization always has someone who may grant `admin`.
   */
  async remove(id: string): Promise<Member> {
    return this.ctx.em.transactional(async (em) => {
      const member = await this.findForChange(em, id);
      if (member.role === MemberRole.OWNER) {
        await this.assertOwnerAuthority('remove an owner');
        await this.assertNotLastOwner(em, member, 'removed');
      }
      await em.execute('delete from oauth_tokens where member_id = ?', [member.id]);
      await em.execute('delete from oauth_authorization_codes where member_id = ?', [member.id]);
      em.remove(member);
      await em.flush();
      return member;
    });
  }

  private async findForChange(em: EntityManager, id: string): Promise<Member> {
    // Member changes of one organization take its row's lock first, then the member's (read fresh): they
    // apply one after the other, in one lock order (a member's lock before the owners' would deadlock two
    // owners demoted at once).
    await em.execute('select id from organizations where id = ? for update', [this.ctx.scope.organizationId]);
    const member = await em.findOne(
      Member,
      { id, organizationId: this.ctx.scope.organizationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!member) throw new NotFoundError('Member', id);
    return member;
  }

  /**
   * Locks the organization's owners (FOR UPDATE) before counting them, so that two owners demoted or
   * removed at the same time cannot both see "another owner is left".
   */
  private async assertNotLastOwner(em: EntityManager, member: Member, what: string): Promise<void> {
    const owners = await em.execute<Array<{ id: string }>>(
      `select id from members where organization_id = ? and role = ? for update`,
      [member.organizationId, MemberRole.OWNER],
    );
    if (owners.filter((owner) => owner.id !== member.id).length === 0)
      throw new ConflictError(
        `The last owner of an organization cannot be ${what}; make another member an owner first`,
        { memberId: member.id },
      );
  }

  /**
   * Owners are managed by an owner in person (an access token of an owner member) or by the operator
   * (CLI). An API key, even Admin, stands for no one in particular, and an admin member can create an
   * Admin key: if either could make owners, any admin could become one.
   */
  private async assertOwnerAuthority(action: string): Promise<void> {
    const { viewer } = this.ctx;
    if (!viewer) return;
    if (viewer.credentialKind === 'access_token') {
      const rows = await this.ctx.em.execute<Array<{ role: MemberRole }>>(
        `select m.role from oauth_tokens t join members m on m.id = t.member_id where t.id = ?`,
        [viewer.credentialId],
      );
      if (rows[0]?.role === MemberRole.OWNER) return;
    }
    throw new ForbiddenError(`Only an owner (signed in through OAuth) or the CLI may ${action}`, {
      required: MemberRole.OWNER,
    });
  }

  /**
   * The member with this email and password, or null. An unknown email still costs one scrypt check
   * (against a dummy hash), so the answer and its timing are the same for "no such member" and
   * "wrong password".
   */
  async verifyCredentials(email: string, password: string): Promise<Member | null> {
    const member = await this.ctx.em.findOne(Member, {
      organizationId: this.ctx.scope.organizationId,
      email: normalizeEmail(email),
    });
    // An unknown email is checked against a dummy hash of the same cost: no timing tells emails apart.
    const check = this.ctx.passwordCheck ?? verifyPassword;
    const matches = await check(password, member?.passwordHash ?? (await dummyPasswordHash()));
    if (!member || !matches) return null;
    member.lastSignInAt = this.ctx.clock.now();
    await this.ctx.em.flush();
    return member;
  }
}
