import { isCloudError, type CloudError } from './cloud-error.js';

/**
 * Third-party sources that compliance data connectors import from (SPEC 2.6 "Data connector"): chat,
 * social media, financial, HR and physical-access systems, reached through the upstream cloud's connector
 * service. A tenant's client has it as `connectorSources` (tenant-cloud.ts); simulated in simulated/simulated-connector-source.ts.
 */
export interface CloudConnectorSource {
  /** e.g. Slack, Bloomberg Message, Workday (the catalog is in src/compliance/connector-catalog.ts). */
  sourceType: string;
  /** Opened credentials: only ever held in memory for the call. */
  credentials: Record<string, string>;
}

export interface CloudConnectorUserMapping {
  strategy: 'Email' | 'Mapping table';
  mappings: Array<{ sourceIdentity: string; userPrincipalName: string }>;
  unmatched: 'Skip' | 'Import to fallback mailbox';
  fallbackMailbox: string | null;
}

export interface CloudConnectorImportRequest extends CloudConnectorSource {
  /** Our connector's id: the source keeps its import cursor under it. */
  connectorKey: string;
  userMapping: CloudConnectorUserMapping;
  /** Items created at the source in [since, until). */
  since: string | null;
  until: string;
}

export interface CloudConnectorImportResult {
  itemsImported: number;
  /** How many items could not be imported: the run's `errorCount` (one message may cover many items). */
  itemsFailed: number;
  /** Why items could not be imported (e.g. from identities no mapping matched), one message per cause. */
  errors: string[];
}

/**
 * Why a source said no. `refused`: it rejected the credentials or the configuration (the client can fix
 * it); `unavailable`: it could not be reached or is down (an outage, nothing the client sent is wrong).
 * `reason` is safe to show (never holds a credential).
 */
export interface ConnectorSourceRefusal {
  kind: 'refused' | 'unavailable';
  reason: string;
}

/**
 * The `cloudCode` of the CloudError an import rejects with when the source (not the cloud) said no:
 * Refused with SOURCE_REFUSED, Transient with SOURCE_UNAVAILABLE; the message is the refusal's reason.
 */
export const CONNECTOR_SOURCE_REFUSED = 'SOURCE_REFUSED';
export const CONNECTOR_SOURCE_UNAVAILABLE = 'SOURCE_UNAVAILABLE';

/** Whether `error` is the source's refusal or outage during an import (connector-import counts it). */
export function isConnectorSourceFailure(error: unknown): error is CloudError {
  return (
    isCloudError(error) &&
    (error.cloudCode === CONNECTOR_SOURCE_REFUSED || error.cloudCode === CONNECTOR_SOURCE_UNAVAILABLE)
  );
}

export interface CloudConnectorSourceProvider {
  /** Signs in to the source with the credentials; resolves with why it said no, or null when fine. */
  testConnectorConnection(source: CloudConnectorSource): Promise<ConnectorSourceRefusal | null>;
  /** Imports the source's new items into the tenant's compliance archive (see CONNECTOR_SOURCE_REFUSED). */
  importConnectorData(request: CloudConnectorImportRequest): Promise<CloudConnectorImportResult>;
}
