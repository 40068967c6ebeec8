import { ActorType, type Actor } from './actor.types.js';

/**
 * A principal string as the audit columns store it (src/context.ts builds `ctx.actor`), taken apart.
 * Anything that is not one of our prefixes came from the upstream cloud (for instance a guest invited there).
 */
export type Principal =
  | { kind: 'api_key'; id: string }
  | { kind: 'access_token'; id: string }
  /** What an access token did (since 2026-11-26): the member, and the OAuth client it acted through. */
  | { kind: 'member'; id: string; clientId: string | null }
  | { kind: 'system'; job: string }
  | { kind: 'upstream'; name: string }
  | { kind: 'unknown' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parsePrincipal(principal: string): Principal {
  const member = /^member:([^:]*):(.*)$/.exec(principal);
  if (member) {
    const [, id, clientId] = member;
    if (!UUID.test(id) || (clientId !== '' && !UUID.test(clientId))) return { kind: 'unknown' };
    return { kind: 'member', id, clientId: clientId || null };
  }
  const match = /^(api_key|access_token|system):(.*)$/.exec(principal);
  if (!match) return principal.trim() ? { kind: 'upstream', name: principal } : { kind: 'unknown' };
  const [, kind, rest] = match;
  if (kind === 'system') return rest ? { kind: 'system', job: rest } : { kind: 'unknown' };
  // A malformed id could never match a row, and would fail the uuid cast of the whole batch.
  if (!UUID.test(rest)) return { kind: 'unknown' };
  return kind === 'api_key' ? { kind: 'api_key', id: rest } : { kind: 'access_token', id: rest };
}

/** Readable names of the jobs that act on their own; an unlisted job gets its name with dashes as spaces. */
const SYSTEM_NAMES: Readonly<Record<string, string>> = {
  'tenant-sync': 'Tenant sync',
  'deleted-user-purge': 'Deleted-user purge',
  'info-barrier-apply': 'Information barrier apply',
  'recommendation-apply': 'Recommendation apply',
  'snooze-expiry': 'Snooze expiry',
  'device-action': 'Device actions',
  'user-import': 'User import',
  'user-offboarding': 'User offboarding',
  'backup-restore': 'Backup restore',
  backup: 'Backup catalog refresh',
  compliance: 'Compliance connector import',
  webhooks: 'Webhook delivery',
  'demo-seed': 'Demo data',
};

export function systemActor(job: string): Actor {
  const fallback = job.replace(/[-_]+/g, ' ');
  const name = SYSTEM_NAMES[job] ?? fallback.charAt(0).toUpperCase() + fallback.slice(1);
  return { type: ActorType.SYSTEM, id: job, name, email: null, oauthClientName: null };
}

export function upstreamActor(name: string): Actor {
  return { type: ActorType.UPSTREAM, id: null, name, email: null, oauthClientName: null };
}

export const UNKNOWN_ACTOR: Actor = {
  type: ActorType.UNKNOWN,
  id: null,
  name: null,
  email: null,
  oauthClientName: null,
};
