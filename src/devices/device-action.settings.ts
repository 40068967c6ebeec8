declare module '../core/service-context.js' {
  interface AppDeps {
    /** Device action settings; absent: DEFAULT_DEVICE_ACTION_SETTINGS. */
    deviceActions?: Partial<DeviceActionSettings>;
  }
}

/**
 * How a device action job follows the cloud's action. The default is the server's; tests against the Graph
 * fake (whose Defender moves an action on each read) poll sooner through AppDeps.deviceActions, so a test waits
 * for the job's work, not for the pause between two of its looks.
 */
export interface DeviceActionSettings {
  /** The pause between two reads of an action the cloud still reports InProgress. */
  pollDelayMs: number;
}

export const DEFAULT_DEVICE_ACTION_SETTINGS: DeviceActionSettings = { pollDelayMs: 5_000 };

export function deviceActionSettingsOf(deps: {
  deviceActions?: Partial<DeviceActionSettings>;
}): DeviceActionSettings {
  return { ...DEFAULT_DEVICE_ACTION_SETTINGS, ...deps.deviceActions };
}
