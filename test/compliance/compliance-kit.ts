import { onServer } from '../helpers/on-server.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import type { DataOf, ItemOf, SuccessOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';

/** What the compliance connector tests share: wire shapes, calls with X-Tenant-Id, the source's hooks, imports. */
export type { Envelope };

export type ConnectorBody = ItemOf<'listComplianceConnectors'>;

export type RunBody = ItemOf<'complianceConnectorHistory'>;

/** The history's meta.statistics, the totals the status report also has. */
export type StatisticsBody = SuccessOf<'complianceConnectorHistory'>['meta']['statistics'];

export type StatusBody = DataOf<'complianceConnectorStatus'>;

export const SECRET = 'xoxb-super-secret-token-4711';
export const HOUR = 3_600_000;

/** A REST call to /api/compliance/connectors… in a tenant; `seen` collects every body (credential checks). */
export async function connectorApi<T>(
  app: TestServer,
  method: string,
  path: string,
  options: { key: string; tenantId?: string; body?: unknown },
  seen?: string[],
): Promise<ApiResponse<Envelope<T>>> {
  const res = await app.request<Envelope<T>>(method, `/api/compliance/connectors${path}`, {
    key: options.key,
    body: options.body,
    headers: options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {},
  });
  seen?.push(JSON.stringify(res.body));
  return res;
}

/** A valid Slack connector body (mapping by email, unmatched skipped), with `extra` fields over it. */
export const slack = (extra: Record<string, unknown> = {}) => ({
  name: 'Slack archive',
  category: 'Communication',
  sourceType: 'Slack',
  credentials: { workspaceUrl: 'https://acme.slack.com', apiToken: SECRET },
  ...extra,
});

/** Creates a connector through REST (201 expected). */
export async function createConnector(
  app: TestServer,
  key: string,
  tenant: Tenant,
  body: unknown = slack(),
  seen?: string[],
): Promise<ConnectorBody> {
  const res = await connectorApi<ConnectorBody>(app, 'POST', '', { key, tenantId: tenant.id, body }, seen);
  if (res.status !== 201) throw new Error(`connector not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The simulated connector sources (fault hooks). */
export function connectorSources(app: TestServer): SimulatedCloud['connectorSources'] {
  return (app.deps.clouds as SimulatedCloud).connectorSources;
}

/** What the 5-minute cron does, then wait (bounded) until the runs it queued have finished; the runs. */
export async function runDueImports(
  app: TestServer,
  key: string,
  tenantId: string,
  connectorId: string,
  seen?: string[],
): Promise<RunBody[]> {
  await onServer(app, 'scheduleImports');
  return eventually(
    async () => {
      const res = await connectorApi<RunBody[]>(
        app,
        'GET',
        `/${connectorId}/history?limit=100`,
        { key, tenantId },
        seen,
      );
      const unfinished = res.body.data.filter((run) => run.status !== 'Succeeded' && run.status !== 'Failed');
      expect(unfinished).toEqual([]);
      return res.body.data;
    },
    { timeout: 30_000, what: `the import runs of connector ${connectorId} to finish` },
  );
}
