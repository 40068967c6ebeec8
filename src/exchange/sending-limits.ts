import { Field, Int, ObjectType } from 'type-graphql';
import { groupedNumber } from '../core/grouped-number.js';

/**
 * SPEC 8.3 "Mail sending limits behind a restriction": a mailbox that goes past either, across all sending
 * methods, is restricted ("Sending limit exceeded"). The cloud enforces them; we show them beside every
 * restriction so the admin deciding on an unblock knows what the mailbox went past.
 */
export const MAIL_SENDING_LIMITS = { recipientsPerDay: 10_000, messagesPerMinute: 30 } as const;

@ObjectType({
  description:
    'The mail sending limits behind a restriction (SPEC 8.3), across all sending methods: going past either restricts the mailbox',
})
export class MailSendingLimits {
  @Field(() => Int, {
    description: `Recipients per day (${groupedNumber(MAIL_SENDING_LIMITS.recipientsPerDay)})`,
  })
  recipientsPerDay!: number;

  @Field(() => Int, { description: `Messages per minute (${MAIL_SENDING_LIMITS.messagesPerMinute})` })
  messagesPerMinute!: number;
}
