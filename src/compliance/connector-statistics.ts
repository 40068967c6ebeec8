import type { ServiceContext } from '../core/service-context.js';
import type { ComplianceConnector } from './connector.entity.js';
import type { ConnectorRunStatus } from './connector.enums.js';
import type { ConnectorStatistics } from './connector.types.js';

/**
 * The statistics of the status report and the history (one statement whatever the page): the item
 * totals are the connector's stored sums, which each finished run adds to; the run counts come from the
 * runs (compliance_connector_runs_history_index).
 */
export async function connectorStatistics(
  ctx: ServiceContext,
  connector: ComplianceConnector,
): Promise<ConnectorStatistics> {
  const where = [connector.id, ctx.scope.organizationId, ctx.scope.environment];
  const [stats] = await ctx.em.execute<
    Array<{
      runs: string;
      failed: string;
      last_status: ConnectorRunStatus | null;
      last_finished: string | null;
    }>
  >(
    // The last run is the history's first (its order, read backwards off the index: no sort of every run).
    `select count(*) as runs, count(*) filter (where status = 'Failed') as failed,
       max(finished_at) as last_finished,
       (select status from compliance_connector_runs
         where connector_id = ? and organization_id = ? and environment = ?
         order by scheduled_for desc, id desc limit 1) as last_status
     from compliance_connector_runs where connector_id = ? and organization_id = ? and environment = ?`,
    [...where, ...where],
  );
  return {
    runs: Number(stats.runs),
    failedRuns: Number(stats.failed),
    itemsImported: connector.itemsImported,
    errorCount: connector.errorCount,
    lastImportAt: connector.lastImportAt,
    lastRunStatus: stats.last_status,
    lastRunFinishedAt: stats.last_finished ? new Date(stats.last_finished) : null,
  };
}
