import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A known text sealed with the SECRETS_KEY of the first instance that ran (secrets-key-check.ts): every
 * instance opens it at start-up, so one with a missing or different key refuses to start instead of
 * taking webhook jobs it cannot sign.
 */
@Entity({ tableName: 'secrets_key_checks' })
export class SecretsKeyCheck {
  /** Always 1: one check value per database. */
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id: number = 1;

  @Property({ type: 'text' })
  checkValue!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
