import { MemberRole } from './member.enums.js';

/**
 * The demo organization's member, whose credentials the README shows, to try the OAuth sign-in page.
 * Public by design: it exists only where the demo seed runs (SEED_DEMO=false turns it off). Data only, apart
 * from demo-member.ts (which seeds it through MemberService), so a test that signs in with it does not load
 * the members feature; demo-member.ts re-exports it.
 */
export const DEMO_MEMBER = {
  email: 'owner@demo-msp.example',
  password: 'demo-owner-password',
  role: MemberRole.OWNER,
} as const;
