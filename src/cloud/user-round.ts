import type { CloudUserRecord } from './provider.js';

/**
 * One read of a tenant's users for the sync (`CloudDirectory.readUsers`). The provider says what kind of
 * read it is, so the sync never guesses:
 *
 * - `complete`: `users` is every user of the tenant, soft-deleted ones included (`deletedAt`); a user the
 *   sync holds that is absent was removed upstream. The simulated cloud always answers this, and Graph does
 *   on a first sync, or when the stored cursor expired (410 Gone / syncStateNotFound).
 * - `changes`: only what changed since the cursor given (Graph's `@odata.deltaLink`): users added, changed
 *   or restored in `users`, users removed in `removed`; a user absent from both did not change.
 */
export type CloudUserRound = CloudCompleteUserRound | CloudUserChangesRound;

interface CloudUserRoundBase {
  readonly users: readonly CloudUserRecord[];
  /** Where the next round starts (Graph's deltaLink); null when the cloud tracks no changes (simulated). */
  readonly cursor: string | null;
  /** Whether the round carries each user's latest sign-in; unavailable: `lastSignInAt` is unknown, not "never". */
  readonly signInActivity: CloudSignInActivity;
}

export interface CloudCompleteUserRound extends CloudUserRoundBase {
  readonly kind: 'complete';
}

export interface CloudUserChangesRound extends CloudUserRoundBase {
  readonly kind: 'changes';
  /** Users removed since the cursor (Graph's `@removed` entries). */
  readonly removed: readonly CloudUserRemoval[];
  /**
   * Users of `users` whose manager the round does not tell (a delta item carries `manager@delta` only when
   * the manager changed): the manager we hold stands.
   */
  readonly managerUnchanged: ReadonlySet<string>;
  /**
   * Directory roles and latest sign-ins of every user of the tenant: they change without the user changing,
   * so a delta does not carry them, and they are read whole each round.
   */
  readonly activity: CloudUserActivity;
}

/** Graph's `{"@removed": {"reason": "changed" | "deleted"}}`: in the recycle bin, or deleted for good. */
export interface CloudUserRemoval {
  readonly externalId: string;
  readonly reason: 'softDeleted' | 'purged';
}

export interface CloudUserActivity {
  /** Display names of the directory roles each user holds, by upstream id (absent: none). */
  readonly rolesByUser: ReadonlyMap<string, readonly string[]>;
  /** The latest sign-in by upstream id (absent: none); null when sign-in data is unavailable. */
  readonly lastSignInByUser: ReadonlyMap<string, string> | null;
}

export type CloudSignInActivity =
  | { readonly available: true }
  /** `reason`: the cloud's words (Graph: the tenant has no Microsoft Entra ID P1/P2, or AuditLog.Read.All is missing). */
  | { readonly available: false; readonly reason: string };
