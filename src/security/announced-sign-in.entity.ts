import { PrimaryKeyProp } from '@mikro-orm/core';
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Environment } from '../core/scope.js';

/**
 * The risky sign-ins already announced with `security.risky_signin`, one row per sign-in, written in the
 * transaction that records the event (src/security/risky-signins.ts). A sync may see a sign-in again; it is
 * news once. Kept apart from the event history, which housekeeping deletes after 30 days, and keyed for the
 * one lookup it serves. Written and read with SQL only (no scope filter applies; every statement names the
 * organization and environment).
 */
@Entity({ tableName: 'announced_sign_ins' })
export class AnnouncedSignIn {
  [PrimaryKeyProp]?: ['organizationId', 'environment', 'tenantId', 'signInId'];

  @PrimaryKey({ type: 'uuid' })
  organizationId!: string;

  @Enum({ items: () => Environment, primary: true })
  environment!: Environment;

  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  /** The provider's id of the sign-in. */
  @PrimaryKey({ type: 'text' })
  signInId!: string;

  @Property({ type: 'timestamptz' })
  announcedAt!: Date;
}
