import { isIP } from 'node:net';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { PermissionLevel } from '../core/permissions.js';
import type { Scope } from '../core/scope.js';
import type { Clock } from '../core/clock.js';
import { Organization } from '../organizations/organization.entity.js';
import { ApiKey } from './api-key.entity.js';
import { generateApiKey, hashApiKey, KEY_PREFIX_BY_ENVIRONMENT } from './api-key.secrets.js';

function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** NOTIFY channel carrying the id of each revoked key. */
export const API_KEY_REVOKED_CHANNEL = 'api_key_revoked';
/** A key's name or allowlist changed: processes drop it from their caches (sockets stay open). */
export const API_KEY_CHANGED_CHANNEL = 'api_key_changed';

export interface ApiKeyChanges {
  name?: string | null;
  allowedIps?: string[] | null;
}

export interface NewApiKey {
  name: string;
  level: PermissionLevel;
  allowedIps?: string[];
}

/** This process's cache of authenticated keys (ApiKeyAuthenticator). */
export interface ApiKeyCache {
  forget(apiKeyId: string): void;
}

/**
 * Where a context carries the cache: the app puts it in the dependencies every request context is
 * built from. The CLI has none (it is another process: the server learns of a revocation by NOTIFY).
 */
export interface ApiKeyCacheHolder {
  apiKeyCache?: ApiKeyCache;
}

export interface ApiKeyServiceContext extends ApiKeyCacheHolder {
  em: EntityManager;
  scope: Scope;
  clock: Clock;
}

/** Create, list and revoke keys of one organization and environment (used by GraphQL, REST and the CLI). */
export class ApiKeyService {
  constructor(private readonly ctx: ApiKeyServiceContext) {}

  async create(input: NewApiKey): Promise<{ apiKey: ApiKey; secret: string }> {
    const { em, scope, clock } = this.ctx;
    const allowedIps = await this.checkedAllowList(input.allowedIps ?? []);
    const secret = generateApiKey(scope.environment);
    const apiKey = new ApiKey(scope, {
      name: input.name.trim(),
      level: input.level,
      prefix: KEY_PREFIX_BY_ENVIRONMENT[scope.environment],
      lastFour: secret.slice(-4),
      secretHash: hashApiKey(secret),
      createdAt: clock.now(),
    });
    apiKey.allowedIps = allowedIps;
    await em.persist(apiKey).flush();
    return { apiKey, secret };
  }

  /**
   * Renames a key or replaces its IP allowlist (enterprise plan). The level cannot change: a key with other
   * rights is another key. Every process forgets the key at once, so the new allowlist applies to the next
   * request.
   */
  async update(id: string, input: ApiKeyChanges): Promise<ApiKey> {
    const allowedIps = input.allowedIps == null ? undefined : await this.checkedAllowList(input.allowedIps);
    const apiKey = await this.ctx.em.transactional(async (em) => {
      // Locked: a revocation at the same moment cannot slip between the check and the write.
      const found = await em.findOne(ApiKey, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!found) throw new NotFoundError('API key', id);
      if (found.revokedAt) throw new ConflictError('A revoked API key cannot be changed', { id });
      if (input.name != null) found.name = input.name.trim();
      if (allowedIps) found.allowedIps = allowedIps;
      await em.flush();
      await em.execute('select pg_notify(?, ?)', [API_KEY_CHANGED_CHANNEL, found.id]);
      return found;
    });
    this.ctx.apiKeyCache?.forget(apiKey.id);
    return apiKey;
  }

  private async checkedAllowList(allowedIps: string[]): Promise<string[]> {
    const badEntry = allowedIps.find((entry) => !isAddressOrRange(entry));
    if (badEntry !== undefined) {
      throw new InvalidRequestError(`"${badEntry}" is not an IP address or CIDR range`, [
        { field: 'allowedIps', problem: `"${badEntry}" is not an IPv4/IPv6 address or CIDR range` },
      ]);
    }
    if (allowedIps.length > 0) {
      const organization = await this.ctx.em.findOneOrFail(Organization, this.ctx.scope.organizationId);
      if (!organization.isEnterprise) {
        throw new InvalidRequestError('IP allowlisting is an enterprise-plan feature', [
          { field: 'allowedIps', problem: 'requires the enterprise (custom) plan' },
        ]);
      }
    }
    return allowedIps;
  }

  list(): Promise<ApiKey[]> {
    return this.ctx.em.find(ApiKey, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** One page of the keys, revoked ones included (they show revokedAt), newest first. */
  listPage(args: PageArgs): Promise<Page<ApiKey>> {
    return findLeanPage(this.ctx, ApiKey, {}, args, { createdAt: 'desc', id: 'desc' });
  }

  /**
   * Revokes a key. This process drops it from its cache as soon as the revocation is committed, before
   * answering, so the very next request with the key gets 401; every other server process drops it when
   * the NOTIFY arrives (sent on commit).
   */
  async revoke(id: string): Promise<ApiKey> {
    const apiKey = await this.ctx.em.transactional(async (em) => {
      const found = await em.findOne(ApiKey, { id });
      if (!found) throw new NotFoundError('API key', id);
      if (!found.revokedAt) {
        found.revokedAt = this.ctx.clock.now();
        await em.flush();
        await em.execute('select pg_notify(?, ?)', [API_KEY_REVOKED_CHANNEL, found.id]);
      }
      return found;
    });
    this.ctx.apiKeyCache?.forget(apiKey.id);
    return apiKey;
  }
}
