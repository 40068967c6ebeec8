import DataLoader from 'dataloader';
import { defineLoader } from '../core/loaders.js';
import { DeviceSecurityService } from './device-security.service.js';
import type { DeviceTimelineEntry } from './device.types.js';

/** A device's timeline: one statement for every device of a response. */
export const deviceTimelineLoader = defineLoader<string, DeviceTimelineEntry[]>(
  'deviceTimeline',
  (ctx) => new DataLoader((deviceIds) => new DeviceSecurityService(ctx).timelines(deviceIds)),
);
