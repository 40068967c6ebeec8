import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Plan } from './organization.enums.js';

export { Plan };
registerEnumType(Plan, { name: 'Plan', description: 'Commercial plan; sets the rate limit (SPEC 8.1)' });

/** Requests per minute by plan (SPEC 8.1). Custom uses the organization's contracted number. */
export const RATE_LIMIT_BY_PLAN: Record<Exclude<Plan, Plan.CUSTOM>, number> = {
  [Plan.STARTER]: 60,
  [Plan.GROWTH]: 300,
  [Plan.SCALE]: 1000,
};

/** "Unlimited" custom contracts still get a counter, just one that no real client reaches. */
export const UNLIMITED_RATE = 1_000_000;

/** One MSP: owns keys, tenants, webhooks... Not scoped: it is the scope. */
@ObjectType({ description: 'A managed service provider using the platform' })
@Entity({ tableName: 'organizations' })
export class Organization {
  [OptionalProps]?: 'createdAt' | 'customRateLimitPerMinute';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field()
  @Property({ unique: true })
  slug!: string;

  @Field()
  @Property()
  name!: string;

  @Field(() => Plan)
  @Enum({ items: () => Plan })
  plan!: Plan;

  /** Custom plans only: the contracted requests per minute; null means unlimited. */
  @Property({ type: 'integer', nullable: true })
  customRateLimitPerMinute: number | null = null;

  @Field()
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  constructor(fields: {
    slug: string;
    name: string;
    plan: Plan;
    createdAt: Date;
    customRateLimitPerMinute?: number | null;
  }) {
    Object.assign(this, fields);
  }

  @Field(() => Int, { description: 'Requests per minute allowed for each environment' })
  get rateLimitPerMinute(): number {
    if (this.plan === Plan.CUSTOM) return this.customRateLimitPerMinute ?? UNLIMITED_RATE;
    return RATE_LIMIT_BY_PLAN[this.plan];
  }

  /** IP allowlisting is an enterprise feature (SPEC 5.1); the custom plan is our enterprise plan. */
  get isEnterprise(): boolean {
    return this.plan === Plan.CUSTOM;
  }
}
