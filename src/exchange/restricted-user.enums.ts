/** SPEC 2.6 "Restricted user": why the sender was restricted. */
export enum RestrictionReason {
  OUTBOUND_SPAM = 'Outbound spam',
  SENDING_LIMIT_EXCEEDED = 'Sending limit exceeded',
  SUSPICIOUS_ACTIVITY = 'Suspicious activity',
}

/** SPEC 2.6 "Restricted user", 3.3: Restricted → Unblocked (by an unblock). */
export enum RestrictionStatus {
  RESTRICTED = 'Restricted',
  UNBLOCKED = 'Unblocked',
}
