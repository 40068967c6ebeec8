/**
 * Third-party sources that compliance data connectors import from (SPEC 2.6 "Data connector"): chat,
 * social media, financial, HR and physical-access systems, reached through the upstream cloud's connector
 * service. Composed into CloudProvider (provider.ts); simulated in simulated/simulated-connector-source.ts.
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
  /** Items that could not be imported (e.g. from identities no mapping matched), with why. */
  errors: string[];
}

/** The source refused or could not be reached; `reason` is safe to show (never holds a credential). */
export class ConnectorSourceError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface CloudConnectorSourceProvider {
  /** Signs in to the source with the credentials; resolves with the refusal reason, or null when fine. */
  testConnectorConnection(tenantExternalId: string, source: CloudConnectorSource): Promise<string | null>;
  /** Imports the source's new items into the tenant's compliance archive; throws ConnectorSourceError. */
  importConnectorData(
    tenantExternalId: string,
    request: CloudConnectorImportRequest,
  ): Promise<CloudConnectorImportResult>;
}
