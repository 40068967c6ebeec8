import type { FeatureModule } from '../core/feature-module.js';
import { INFO_BARRIER_ROUTES } from './info-barrier.rest.js';
import { BARRIER_APPLY_TASK } from './barrier-application.service.js';
import {
  BARRIER_PROGRESS_CRON,
  BARRIER_PROGRESS_TASK,
  barrierApplyTask,
  barrierProgressTask,
} from './barrier-application.task.js';
import { BarrierApplication, BarrierPolicy, BarrierSegment } from './info-barrier.entity.js';
import { InfoBarrierResolver } from './info-barrier.resolver.js';

/** Information barriers: segments, policies and their application (SPEC 4.2 security). */
export const infoBarriersModule: FeatureModule = {
  name: 'info-barriers',
  resolvers: [InfoBarrierResolver],
  entities: [BarrierSegment, BarrierPolicy, BarrierApplication],
  tasks: { [BARRIER_APPLY_TASK]: barrierApplyTask, [BARRIER_PROGRESS_TASK]: barrierProgressTask },
  crons: [BARRIER_PROGRESS_CRON],
  routes: { api: INFO_BARRIER_ROUTES },
};
