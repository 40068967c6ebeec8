import type { MikroORM } from '@mikro-orm/postgresql';
import { cloudCallBudgetOf } from '../cloud/cloud-call-budget.js';
import type { CloudPartner, CloudProvider, CloudProviders } from '../cloud/cloud-provider.js';
import { graphTransportOf } from '../cloud/microsoft365/graph-transport.js';
import { Microsoft365CloudProvider } from '../cloud/microsoft365/microsoft365-provider.js';
import { ConflictError } from '../core/errors.js';
import { Environment } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { CloudConnection } from './cloud-connection.entity.js';
import { CloudProviderKind } from './cloud-connection.enums.js';

declare module '../core/service-context.js' {
  interface AppDeps {
    /**
     * What the live environment of an organization without a cloud connection acts on: `simulated` (the
     * default, as before connections existed: development, the demo and the tests' live keys) or `none`
     * (every cloud call answers 409 CONFLICT until a connection is saved). docs/microsoft365.md.
     */
    liveWithoutConnection?: 'simulated' | 'none';
  }
}

interface CachedProvider {
  /** What the provider was built from: the connection row's id, tenant, app and sealed secret. */
  stamp: string;
  provider: CloudProvider;
}

/**
 * Picks each partner's provider (`AppDeps.clouds` stays the simulated cloud for the wiring, its seeds and
 * tests; contexts reach clouds through this): the sandbox always acts on the simulated cloud; the live
 * environment on its organization's cloud connection — `microsoft365` (Microsoft365CloudProvider) or
 * `simulated` — and, without one, as `liveWithoutConnection` says.
 *
 * The connection row is read at each `forPartner` (once per request or job run, cloud-access.ts), so a
 * connection saved or removed by another instance counts at once; the Microsoft 365 provider built from it
 * is kept while the row is the same (its id, tenant, app and sealed secret: a new PUT seals anew).
 */
export class ConnectedClouds implements CloudProviders {
  private readonly providers = new Map<string, CachedProvider>();

  constructor(
    private readonly orm: MikroORM,
    private readonly deps: AppDeps,
  ) {}

  async forPartner(partner: CloudPartner): Promise<CloudProvider> {
    const simulated = this.deps.clouds;
    if (partner.environment !== Environment.LIVE) return simulated.forPartner(partner);
    const connection = await this.orm.em
      .fork()
      .findOne(
        CloudConnection,
        { organizationId: partner.organizationId, environment: partner.environment },
        { filters: false, populate: ['clientSecret'] },
      );
    const key = `${partner.organizationId}|${partner.environment}`;
    if (!connection || connection.provider !== CloudProviderKind.MICROSOFT365) {
      this.providers.delete(key);
      if (connection || (this.deps.liveWithoutConnection ?? 'simulated') === 'simulated')
        return simulated.forPartner(partner);
      throw new ConflictError(
        'The live environment has no cloud connection: save one first (PUT /api/settings/cloud-connection)',
      );
    }
    const stamp = [
      connection.id,
      connection.partnerTenantId,
      connection.clientId,
      connection.clientSecret,
    ].join('|');
    const cached = this.providers.get(key);
    if (cached?.stamp === stamp) return cached.provider;
    const provider = new Microsoft365CloudProvider(
      graphTransportOf(this.deps),
      {
        partnerTenantId: connection.partnerTenantId ?? '',
        clientId: connection.clientId ?? '',
        clientSecret: webhookSettingsOf(this.deps).secretBox.open(connection.clientSecret ?? ''),
      },
      partner,
      () => this.deps.clock.now(),
      cloudCallBudgetOf(this.orm, this.deps).forApp(connection.clientId ?? ''),
    );
    this.providers.set(key, { stamp, provider });
    return provider;
  }
}

const selections = new WeakMap<CloudProviders, ConnectedClouds>();

/** The process's provider selection for an application's deps (one per simulated cloud, so one cache). */
export function connectedClouds(orm: MikroORM, deps: AppDeps): CloudProviders {
  let selection = selections.get(deps.clouds);
  if (!selection) {
    selection = new ConnectedClouds(orm, deps);
    selections.set(deps.clouds, selection);
  }
  return selection;
}
