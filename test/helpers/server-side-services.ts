/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files that call a feature's service directly,
 * as the CLI and the seed do, rather than over HTTP: the service is made with the server's ORM and clock (a
 * fresh EntityManager each call, as each of the file's own `new ...Service({ em: app.orm.em.fork() })` was).
 */
import { seedDemoMember } from '../../src/members/demo-member.js';
import { Member, type MemberRole } from '../../src/members/member.entity.js';
import { dummyPasswordHash } from '../../src/members/member.password.js';
import { MemberService, type PasswordCheck } from '../../src/members/member.service.js';
import { User } from '../../src/users/user.entity.js';
import type { TestApp } from './test-app.js';

/** The operator's MemberService (no viewer: the CLI's and the seed's) for `organizationId`. */
function memberService(app: TestApp, organizationId: string, passwordCheck?: PasswordCheck): MemberService {
  return new MemberService({
    em: app.orm.em.fork(),
    scope: { organizationId },
    clock: app.clock,
    passwordCheck,
  });
}

/** MemberService.verifyCredentials, checking passwords with `passwordCheck` when given. */
function verifyMemberCredentials(
  app: TestApp,
  organizationId: string,
  email: string,
  password: string,
  passwordCheck?: PasswordCheck,
): Promise<Member | null> {
  return memberService(app, organizationId, passwordCheck).verifyCredentials(email, password);
}

/** MemberService.updateRole as the operator. */
function updateMemberRole(
  app: TestApp,
  organizationId: string,
  id: string,
  role: MemberRole,
): Promise<Member> {
  return memberService(app, organizationId).updateRole(id, role);
}

/** The demo seed's member (src/members/demo-member.ts) in `organizationId`. */
async function seedTheDemoMember(app: TestApp, organizationId: string): Promise<void> {
  await seedDemoMember(app.orm.em.fork(), organizationId, app.clock);
}

/** A member as the ORM reads it (its stored password hash included). */
function findMember(app: TestApp, id: string): Promise<Member> {
  return app.orm.em.fork().findOneOrFail(Member, { id });
}

/** A user's last sign-in, written as the sync would (an update of the row: the portal's triggers mark its tenant). */
async function setLastSignIn(app: TestApp, userId: string, lastSignInAt: Date | null): Promise<void> {
  await app.orm.em.fork().nativeUpdate(User, { id: userId }, { lastSignInAt }, { filters: false });
}

/** The hash the server's sign-in checks an unknown email's password against (made once per process). */
function memberDummyPasswordHash(): Promise<string> {
  return dummyPasswordHash();
}

export const SERVER_SIDE_SERVICES = {
  memberDummyPasswordHash,
  setLastSignIn,
  verifyMemberCredentials,
  updateMemberRole,
  seedDemoMember: seedTheDemoMember,
  findMember,
};
