import type { FeatureModule } from '../core/feature-module.js';
import { DEVICE_ROUTES } from './device.rest.js';
import { DeviceAction } from './device-action.entity.js';
import { DEVICE_ACTION_TASK } from './device-action.service.js';
import { deviceActionTask } from './device-action.task.js';
import { DeviceRecommendationCount } from './device-recommendation-count.entity.js';
import { Device } from './device.entity.js';
import { DeviceResolver } from './device.resolver.js';
import { devicesSyncStep } from './device-sync.js';

/** Managed devices' security: isolation, scans, recommendations (SPEC 4.2 security). */
export const devicesModule: FeatureModule = {
  name: 'devices',
  resolvers: [DeviceResolver],
  entities: [Device, DeviceAction, DeviceRecommendationCount],
  tasks: { [DEVICE_ACTION_TASK]: deviceActionTask },
  routes: { api: DEVICE_ROUTES },
  eventKinds: ['device.isolated', 'device.released', 'device.scan_completed'],
  syncStep: devicesSyncStep,
};
