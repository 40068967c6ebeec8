import type { EntityManager } from '@mikro-orm/postgresql';
import { InvalidRequestError, NotFoundError } from '../core/errors.js';
import type { PermissionLevel } from '../core/permissions.js';
import type { Scope } from '../core/scope.js';
import type { Clock } from '../core/clock.js';
import { Organization } from '../organizations/organization.entity.js';
import { ApiKey } from './api-key.entity.js';
import { generateApiKey, hashApiKey, KEY_PREFIX_BY_ENVIRONMENT } from './api-key.secrets.js';

export interface NewApiKey {
  name: string;
  level: PermissionLevel;
  allowedIps?: string[];
}

export interface ApiKeyServiceContext {
  em: EntityManager;
  scope: Scope;
  clock: Clock;
}

/** Create, list and revoke keys of one organization and environment (used by GraphQL, REST and the CLI). */
export class ApiKeyService {
  constructor(private readonly ctx: ApiKeyServiceContext) {}

  async create(input: NewApiKey): Promise<{ apiKey: ApiKey; secret: string }> {
    const { em, scope, clock } = this.ctx;
    const allowedIps = input.allowedIps ?? [];
    if (allowedIps.length > 0) {
      const organization = await em.findOneOrFail(Organization, scope.organizationId);
      if (!organization.isEnterprise) {
        throw new InvalidRequestError('IP allowlisting is an enterprise-plan feature', [
          { field: 'allowedIps', problem: 'requires the enterprise (custom) plan' },
        ]);
      }
    }
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

  list(): Promise<ApiKey[]> {
    return this.ctx.em.find(ApiKey, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  async revoke(id: string): Promise<ApiKey> {
    const apiKey = await this.ctx.em.findOne(ApiKey, { id });
    if (!apiKey) throw new NotFoundError('API key', id);
    if (!apiKey.revokedAt) {
      apiKey.revokedAt = this.ctx.clock.now();
      await this.ctx.em.flush();
    }
    return apiKey;
  }
}
