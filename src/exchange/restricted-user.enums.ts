import { registerEnumType } from 'type-graphql';

/** SPEC 2.6 "Restricted user": why the sender was restricted. */
export enum RestrictionReason {
  OUTBOUND_SPAM = 'Outbound spam',
  SENDING_LIMIT_EXCEEDED = 'Sending limit exceeded',
  SUSPICIOUS_ACTIVITY = 'Suspicious activity',
}
registerEnumType(RestrictionReason, {
  name: 'RestrictionReason',
  description: 'Outbound spam, Sending limit exceeded or Suspicious activity',
});

/** SPEC 2.6 "Restricted user", 3.3: Restricted → Unblocked (by an unblock). */
export enum RestrictionStatus {
  RESTRICTED = 'Restricted',
  UNBLOCKED = 'Unblocked',
}
registerEnumType(RestrictionStatus, {
  name: 'RestrictionStatus',
  description: 'Restricted (cannot send mail) or Unblocked',
});
