/**
 * A member (test/factories/shared.ts `createMember`) whose stored password hash has scrypt's cost at 2^10
 * instead of 2^15. A sign-in checks the password at the cost stored with the hash (src/members/member.password.ts),
 * so one costs about 3 ms of CPU instead of about 90, and goes through the same code, limits and counters. For
 * files whose sign-ins are not about the hashing (the OAuth flow, the sign-in limits); the cost itself is
 * test/members/members.test.ts's. Unknown emails are still checked at the full cost, against the dummy hash.
 */
import { hashPassword } from '../../src/members/member.password.js';
import { createMember } from '../factories/shared.js';
import { onServer } from './on-server.js';
import type { TestServer } from './shared-suite.js';

const LOW_COST = { N: 2 ** 10, r: 8, p: 1 } as const;

export async function createLowCostMember(
  app: TestServer,
  ...rest: Parameters<typeof createMember> extends [TestServer, ...infer A] ? A : never
): Promise<Awaited<ReturnType<typeof createMember>>> {
  const member = await createMember(app, ...rest);
  const passwordHash = await hashPassword(member.password, LOW_COST);
  await onServer(app, 'updateEntities', 'Member', { id: member.id }, { passwordHash });
  return member;
}
