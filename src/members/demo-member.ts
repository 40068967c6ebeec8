import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { DEMO_MEMBER } from './demo-member-account.js';
import type { Member } from './member.entity.js';
import { MemberService } from './member.service.js';

/** The demo organization's member (demo-member-account.ts: its credentials, data only). */
export { DEMO_MEMBER };

export function seedDemoMember(em: EntityManager, organizationId: string, clock: Clock): Promise<Member> {
  return new MemberService({ em, scope: { organizationId }, clock }).create({ ...DEMO_MEMBER });
}
