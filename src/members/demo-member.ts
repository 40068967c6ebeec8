import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { MemberRole, type Member } from './member.entity.js';
import { MemberService } from './member.service.js';

/**
 * The demo organization's member, whose credentials the README shows, to try the OAuth sign-in page.
 * Public by design: it exists only where the demo seed runs (SEED_DEMO=false turns it off).
 */
export const DEMO_MEMBER = {
  email: 'owner@demo-msp.example',
  password: 'demo-owner-password',
  role: MemberRole.OWNER,
} as const;

export function seedDemoMember(em: EntityManager, organizationId: string, clock: Clock): Promise<Member> {
  return new MemberService({ em, scope: { organizationId }, clock }).create({ ...DEMO_MEMBER });
}
