import { ConflictError } from '../core/errors.js';
import { AlertStatus } from './alert.enums.js';

/**
 * DECISIONS "State machines": New → In Progress, Resolved, Dismissed; In Progress → Resolved, Dismissed;
 * Resolved → In Progress (reopen); Dismissed → New (reopen). The same status again is a no-op.
 */
export const ALERT_MOVES: Record<AlertStatus, readonly AlertStatus[]> = {
  [AlertStatus.NEW]: [AlertStatus.IN_PROGRESS, AlertStatus.RESOLVED, AlertStatus.DISMISSED],
  [AlertStatus.IN_PROGRESS]: [AlertStatus.RESOLVED, AlertStatus.DISMISSED],
  [AlertStatus.RESOLVED]: [AlertStatus.IN_PROGRESS],
  [AlertStatus.DISMISSED]: [AlertStatus.NEW],
};

/** Throws 409 CONFLICT {from, to, allowed} unless `from → to` is a move of the machine (or no move). */
export function assertAlertMove(from: AlertStatus, to: AlertStatus): void {
  if (from === to || ALERT_MOVES[from].includes(to)) return;
  throw new ConflictError(`An alert cannot move from ${from} to ${to}`, {
    from,
    to,
    allowed: ALERT_MOVES[from],
  });
}
