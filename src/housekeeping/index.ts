import type { FeatureModule } from '../core/feature-module.js';
import { HOUSEKEEPING_CRON, HOUSEKEEPING_TASK, housekeepingTask } from './housekeeping.task.js';

/** Periodic clean-up of expired rows. */
export const housekeepingModule: FeatureModule = {
  name: 'housekeeping',
  tasks: { [HOUSEKEEPING_TASK]: housekeepingTask },
  crons: [HOUSEKEEPING_CRON],
};
