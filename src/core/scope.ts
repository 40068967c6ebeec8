import { randomUUID } from 'node:crypto';
import { Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { Environment } from './environment.js';

export { Environment };
registerEnumType(Environment, {
  name: 'Environment',
  description: 'live (svc_sk_live_ keys) or sandbox (svc_sk_test_ keys)',
});

/** The organization and environment every row belongs to. */
export interface Scope {
  organizationId: string;
  environment: Environment;
}

/** The MikroORM filter that confines every read of a scoped entity to the caller's scope. */
export const SCOPE_FILTER = 'scope';

/**
 * Base of every entity that belongs to an organization and environment.
 * Reads are confined by the `scope` filter (registered in the ORM config for every subclass),
 * so a feature cannot forget the `where`.
 */
@ObjectType('ScopedRecord')
export abstract class ScopedEntity {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid', index: true })
  organizationId!: string;

  @Enum({ items: () => Environment })
  environment!: Environment;

  protected assignScope(scope: Scope): void {
    this.organizationId = scope.organizationId;
    this.environment = scope.environment;
  }
}
