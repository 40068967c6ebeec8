import { BlockList, isIP } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { permissionsOfLevel, type PermissionLevel } from '../core/permissions.js';
import type { Environment } from '../core/scope.js';
import type { Viewer } from '../core/viewer.js';
import { Plan, RATE_LIMIT_BY_PLAN, UNLIMITED_RATE } from '../organizations/organization.entity.js';
import { environmentOfKey, hashApiKey } from './api-key.secrets.js';

export type AuthResult = { ok: true; viewer: Viewer } | { ok: false; reason: 'invalid' | 'ip_not_allowed' };

interface KeyRow {
  id: string;
  organization_id: string;
  environment: Environment;
  level: PermissionLevel;
  allowed_ips: string[];
  slug: string;
  plan: Plan;
  custom_rate_limit_per_minute: number | null;
  last_used_at: Date | null;
}

interface CachedKey {
  viewer: Viewer;
  allowList: BlockList | null;
  expiresAt: number;
  lastUsedWrittenAt: number;
}

/**
 * How long a key stays cached in memory. Revocation and every change to a key clear it at once, in this process
 * directly and in the others by NOTIFY, and while the LISTEN connection is down nothing is cached; so the TTL
 * only bounds changes made behind the product's back (SQL by hand, e.g. an organization's plan). A reload is a
 * round trip on some request's path, which a 5 s TTL paid every 5 s per key.
 */
export const API_KEY_CACHE_TTL_MS = 5 * 60_000;
/** `lastUsedAt` is written at most this often per key, to keep a write off every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

function allowListOf(entries: string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits !== undefined) list.addSubnet(address, Number(bits), family);
    else list.addAddress(address, family);
  }
  return list;
}

function ipAllowed(allowList: BlockList | null, ip: string): boolean {
  if (!allowList) return true;
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return allowList.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
}

/** Resolves `Authorization: Bearer svc_sk_...` to a Viewer. */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedKey>();
  /**
   * Bumped by every forget: a load that started before a revocation's NOTIFY may have read the row as it was
   * before the revoking commit, and must not put it back in the cache.
   */
  private epoch = 0;
  /** False while the LISTEN connection is down: a revocation made elsewhere would go unheard. */
  private listening = true;

  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  static handles(token: string): boolean {
    return environmentOfKey(token) !== null;
  }

  async authenticate(token: string, ip: string): Promise<AuthResult> {
    const hash = hashApiKey(token);
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || entry.expiresAt < now) {
      const epoch = this.epoch;
      const loaded = await this.load(hash);
      if (!loaded) {
        this.cache.delete(hash);
        return { ok: false, reason: 'invalid' };
      }
      entry = loaded;
      if (this.listening && epoch === this.epoch) this.cache.set(hash, entry);
    }
    if (!ipAllowed(entry.allowList, ip)) return { ok: false, reason: 'ip_not_allowed' };
    if (now - entry.lastUsedWrittenAt > LAST_USED_RESOLUTION_MS) {
      entry.lastUsedWrittenAt = now;
      this.touch(entry.viewer.credentialId);
    }
    return { ok: true, viewer: entry.viewer };
  }

  /** Drops every cached key (revocations may have been missed while the LISTEN connection was down). */
  forgetAll(): void {
    this.epoch++;
    this.cache.clear();
  }

  /**
   * The LISTEN connection's state: while it is down (`false`) nothing is cached and every request reads its
   * key, so a revocation in another process is still refused at once; back up, the cache starts empty.
   */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.forgetAll();
  }

  /** Forget a key at once (called on revocation and on any change to the key, here or by NOTIFY). */
  forget(apiKeyId: string): void {
    this.epoch++;
    for (const [hash, entry] of this.cache)
      if (entry.viewer.credentialId === apiKeyId) this.cache.delete(hash);
  }

  private async load(hash: string): Promise<CachedKey | null> {
    const rows = await this.orm.em.getConnection().execute<KeyRow[]>(
      `select k.id, k.organization_id, k.environment, k.level, k.allowed_ips, k.last_used_at,
              o.slug, o.plan, o.custom_rate_limit_per_minute
         from api_keys k join organizations o on o.id = k.organization_id
        where k.secret_hash = ? and k.revoked_at is null`,
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    const rateLimitPerMinute =
      row.plan === Plan.CUSTOM
        ? (row.custom_rate_limit_per_minute ?? UNLIMITED_RATE)
        : RATE_LIMIT_BY_PLAN[row.plan];
    return {
      viewer: {
        organizationId: row.organization_id,
        organizationSlug: row.slug,
        environment: row.environment,
        rateLimitPerMinute,
        credentialKind: 'api_key',
        credentialId: row.id,
        level: row.level,
        permissions: permissionsOfLevel(row.level),
      },
      allowList: allowListOf(row.allowed_ips),
      expiresAt: Date.now() + API_KEY_CACHE_TTL_MS,
      lastUsedWrittenAt: row.last_used_at ? new Date(row.last_used_at).getTime() : 0,
    };
  }

  private touch(apiKeyId: string): void {
    this.orm.em
      .getConnection()
      .execute('update api_keys set last_used_at = ? where id = ?', [this.clock.now(), apiKeyId])
      .catch(() => undefined); // best effort: a missed lastUsedAt write must not fail the request
  }
}
