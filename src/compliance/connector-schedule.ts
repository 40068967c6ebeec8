import type { EntityManager } from '@mikro-orm/postgresql';
import { ConnectorRun } from './connector-run.entity.js';
import type { ComplianceConnector } from './connector.entity.js';

const HOUR_MS = 3_600_000;

/**
 * When the next import is due after a schedule change: `scheduleHours` after the last scheduled run (as the
 * scheduler counts, connector-import.ts), not before now. A connector with no run scheduled yet keeps its first
 * import due when it was (at creation: the scheduler's next tick), so a new schedule never postpones it; a
 * paused connector has no next import.
 */
export async function rescheduled(
  em: EntityManager,
  connector: ComplianceConnector,
  now: Date,
): Promise<Date | null> {
  if (!connector.nextRunAt) return null;
  const [last] = await em.find(
    ConnectorRun,
    { connectorId: connector.id },
    { orderBy: { scheduledFor: 'desc' }, limit: 1, fields: ['scheduledFor'] },
  );
  if (!last) return connector.nextRunAt;
  return new Date(Math.max(now.getTime(), last.scheduledFor.getTime() + connector.scheduleHours * HOUR_MS));
}
