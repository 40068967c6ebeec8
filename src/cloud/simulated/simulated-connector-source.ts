import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { CloudError } from '../cloud-error.js';
import type { Clock } from '../../core/clock.js';
import {
  CONNECTOR_SOURCE_REFUSED,
  CONNECTOR_SOURCE_UNAVAILABLE,
  type CloudConnectorImportRequest,
  type CloudConnectorImportResult,
  type CloudConnectorSource,
  type ConnectorSourceRefusal,
} from '../connector-source.provider.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import { stableHash } from './simulated-backup.tree.js';

const DAY_MS = 86_400_000;

/**
 * The simulated connector sources. A credential value beginning with `invalid` or `revoked` is refused, as
 * a real source refuses a wrong token; a fault stored for the tenant and source type (`connector_source_fault`)
 * makes the source refuse everything with its reason until it is cleared, either as a refusal (revoked
 * access) or as an outage (`unavailable`: the source is down). Imports bring a deterministic number
 * of items per day of the window, and report the items of unmatched identities when those are skipped.
 */
export class SimulatedConnectorSources {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async testConnectorConnection(
    tenantExternalId: string,
    source: CloudConnectorSource,
  ): Promise<ConnectorSourceRefusal | null> {
    const fault = await this.fault(tenantExternalId, source.sourceType);
    if (fault) return fault;
    const refused = Object.entries(source.credentials).find(([, value]) => /^(invalid|revoked)/i.test(value));
    if (refused)
      return {
        kind: 'refused',
        reason: `${source.sourceType} refused the credentials (401 Unauthorized: check "${refused[0]}")`,
      };
    return null;
  }

  async importConnectorData(
    tenantExternalId: string,
    request: CloudConnectorImportRequest,
  ): Promise<CloudConnectorImportResult> {
    const refusal = await this.testConnectorConnection(tenantExternalId, request);
    if (refusal) {
      const unavailable = refusal.kind === 'unavailable';
      throw new CloudError(unavailable ? 'Transient' : 'Refused', refusal.reason, {
        provider: 'simulated',
        cloudCode: unavailable ? CONNECTOR_SOURCE_UNAVAILABLE : CONNECTOR_SOURCE_REFUSED,
      });
    }
    const until = new Date(request.until).getTime();
    const since = request.since ? new Date(request.since).getTime() : until - DAY_MS;
    let items = 0;
    let unmatched = 0;
    for (let day = Math.floor(since / DAY_MS); day < Math.ceil(until / DAY_MS); day++) {
      const hash = stableHash(`${request.connectorKey}:${day}`);
      items += 20 + (hash % 180);
      unmatched += hash % 4;
    }
    if (request.userMapping.unmatched === 'Import to fallback mailbox' || unmatched === 0)
      return { itemsImported: items, itemsFailed: 0, errors: [] };
    return {
      itemsImported: items - unmatched,
      itemsFailed: unmatched,
      errors: [`${unmatched} item(s) from source identities no mapping matched were skipped`],
    };
  }

  /**
   * Test and demo hook: the source of this type refuses with `reason` (null clears it); `unavailable`
   * makes it an outage (e.g. "Slack API 503 maintenance") rather than a refusal of the credentials.
   */
  async injectFault(
    tenantExternalId: string,
    sourceType: string,
    reason: string | null,
    kind: ConnectorSourceRefusal['kind'] = 'refused',
  ): Promise<void> {
    const em = this.em();
    if (reason === null) {
      await em.nativeDelete(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'connector_source_fault',
        externalId: sourceType,
      });
      return;
    }
    await em.upsert(
      SimulatedCloudObject,
      {
        id: randomUUID(),
        tenantExternalId,
        kind: 'connector_source_fault',
        externalId: sourceType,
        data: { reason, kind },
        updatedAt: this.clock.now(),
      },
      { onConflictFields: ['tenantExternalId', 'kind', 'externalId'], onConflictMergeFields: ['data'] },
    );
  }

  private async fault(tenantExternalId: string, sourceType: string): Promise<ConnectorSourceRefusal | null> {
    const row = await this.em().findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'connector_source_fault',
      externalId: sourceType,
    });
    if (!row) return null;
    // Faults stored before outages existed have no kind: they were refusals.
    return {
      kind: row.data.kind === 'unavailable' ? 'unavailable' : 'refused',
      reason: String(row.data.reason),
    };
  }
}
