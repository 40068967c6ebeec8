import type { CloudRestrictedSenderRecord, CloudRestrictionReason, CloudUserRecord } from '../provider.js';
import { seededRandom, uuidOf } from './seeded-random.js';

/** What the admin is told to do for each reason (SPEC 2.6 "Restricted user": action required). */
export const RESTRICTION_ACTIONS: Record<CloudRestrictionReason, string> = {
  'Outbound spam':
    'Check the mailbox for compromise (reset the password, revoke sessions, review inbox rules), then unblock',
  'Sending limit exceeded':
    'Confirm the mail volume was legitimate (bulk mail belongs in a mailing service), then unblock',
  'Suspicious activity': 'Review recent sign-ins and reset the password; unblock once the account is secured',
};

const RESTRICTION_REASONS = Object.keys(RESTRICTION_ACTIONS) as CloudRestrictionReason[];

/**
 * A few restricted senders for a generated tenant (zero to three active members, restricted in the last
 * two weeks). Drawn after the directory with a PRNG of their own, so the rest of the generated tenant is
 * exactly what it was before restrictions existed. Deterministic for a seed, users and reference date.
 */
export function generateRestrictedSenders(
  users: CloudUserRecord[],
  seed: number,
  referenceDate: Date,
): CloudRestrictedSenderRecord[] {
  const candidates = users
    .filter((u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled)
    .sort((a, b) => a.externalId.localeCompare(b.externalId));
  const random = seededRandom(seed ^ 0x5e17d3);
  const count = Math.min(candidates.length, Math.floor(random() * 4));
  const picked = new Set<number>();
  const senders: CloudRestrictedSenderRecord[] = [];
  while (senders.length < count) {
    const index = Math.floor(random() * candidates.length);
    if (picked.has(index)) continue;
    picked.add(index);
    const user = candidates[index];
    const reason = RESTRICTION_REASONS[Math.floor(random() * RESTRICTION_REASONS.length)];
    senders.push({
      externalId: uuidOf(random),
      userExternalId: user.externalId,
      userPrincipalName: user.userPrincipalName,
      displayName: user.displayName,
      restrictedAt: new Date(referenceDate.getTime() - Math.floor(random() * 14 * 86_400_000)).toISOString(),
      reason,
      status: 'Restricted',
      actionRequired: RESTRICTION_ACTIONS[reason],
      unblockedAt: null,
    });
  }
  return senders;
}
