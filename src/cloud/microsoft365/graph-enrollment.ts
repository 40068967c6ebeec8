import type {
  DeviceEnrollmentConfiguration,
  DeviceEnrollmentLimitConfiguration,
  DeviceEnrollmentPlatformRestriction,
  DeviceEnrollmentPlatformRestrictionsConfiguration,
} from '@microsoft/microsoft-graph-types';
import type {
  CloudDeviceManagementProvider,
  CloudEnrollmentConfiguration,
  CloudEnrollmentConfigurations,
  CloudEnrollmentPlatformRule,
  CloudEnrollmentSettings,
  CloudRestrictionPlatform,
} from '../device-management.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { unsupportedCall } from './graph-unsupported.js';

const CONFIGURATIONS = '/deviceManagement/deviceEnrollmentConfigurations';
const PLATFORM_RESTRICTIONS = '#microsoft.graph.deviceEnrollmentPlatformRestrictionsConfiguration';
const LIMIT = '#microsoft.graph.deviceEnrollmentLimitConfiguration';

type GraphConfiguration = DeviceEnrollmentConfiguration &
  DeviceEnrollmentLimitConfiguration &
  DeviceEnrollmentPlatformRestrictionsConfiguration & { '@odata.type'?: string };

/** Our platform → the v1.0 property holding its rule (Android: the device administrator rule). */
const RULE_PROPERTY = {
  windows: 'windowsRestriction',
  macOS: 'macOSRestriction',
  ios: 'iosRestriction',
  android: 'androidRestriction',
} as const satisfies Record<
  CloudRestrictionPlatform,
  keyof DeviceEnrollmentPlatformRestrictionsConfiguration
>;

const PLATFORMS = Object.keys(RULE_PROPERTY) as CloudRestrictionPlatform[];

function ruleOf(rule: DeviceEnrollmentPlatformRestriction | null | undefined): CloudEnrollmentPlatformRule {
  return {
    platformBlocked: rule?.platformBlocked ?? false,
    personalDeviceEnrollmentBlocked: rule?.personalDeviceEnrollmentBlocked ?? false,
    osMinimumVersion: rule?.osMinimumVersion || null,
    osMaximumVersion: rule?.osMaximumVersion || null,
  };
}

/** A configuration Graph answered, when it is of a kind we write (others, e.g. Windows Hello, are skipped). */
export function configurationOf(graph: GraphConfiguration): CloudEnrollmentConfiguration | null {
  const common = {
    id: graph.id ?? '',
    displayName: graph.displayName ?? '',
    description: graph.description ?? null,
    priority: graph.priority ?? 0,
  };
  if (graph['@odata.type'] === LIMIT) return { ...common, kind: 'limit', limit: graph.limit ?? 0 };
  if (graph['@odata.type'] !== PLATFORM_RESTRICTIONS) return null;
  const rules = Object.fromEntries(
    PLATFORMS.map((platform) => [platform, ruleOf(graph[RULE_PROPERTY[platform]])]),
  ) as Record<CloudRestrictionPlatform, CloudEnrollmentPlatformRule>;
  return { ...common, kind: 'platformRestrictions', rules };
}

/** The request body of a create or an update (the type is named so Graph knows which kind it is). */
function bodyOf(settings: CloudEnrollmentSettings): GraphConfiguration {
  const common = { displayName: settings.displayName, description: settings.description ?? '' };
  if (settings.kind === 'limit') return { '@odata.type': LIMIT, ...common, limit: settings.limit };
  const rules = Object.fromEntries(
    PLATFORMS.map((platform) => [RULE_PROPERTY[platform], { ...settings.rules[platform] }]),
  );
  return { '@odata.type': PLATFORM_RESTRICTIONS, ...common, ...rules };
}

const path = (id: string) => `${CONFIGURATIONS}/${encodeURIComponent(id)}`;

/**
 * Intune's enrollment restrictions through Graph v1.0 (learn.microsoft.com, "deviceEnrollmentConfiguration
 * resource type"): platform restrictions and device limits, with their priority (`setPriority`: the place
 * among the configurations of the same kind, Intune keeping each kind's order on its own, its default at 0
 * and applied last) and assignments (`assign`). DeviceManagementServiceConfig.ReadWrite.All.
 */
export function graphEnrollmentConfigurations(graph: GraphTenantClient): CloudEnrollmentConfigurations {
  const list = (): AsyncIterable<CloudEnrollmentConfiguration[]> => ({
    async *[Symbol.asyncIterator]() {
      for await (const page of graph.pages<GraphConfiguration>(CONFIGURATIONS))
        yield page.value.flatMap((item) => configurationOf(item) ?? []);
    },
  });
  return {
    list,
    async create(settings, requestKey) {
      // Graph keeps no idempotency key: a keyed create answers the configuration a first try made.
      if (requestKey) {
        for await (const page of list()) {
          const made = page.find(
            (found) =>
              found.kind === settings.kind &&
              found.displayName === settings.displayName &&
              found.priority > 0,
          );
          if (made) return { ...made, adopted: true };
        }
      }
      const created = await graph.post<GraphConfiguration>(CONFIGURATIONS, bodyOf(settings));
      const configuration = configurationOf({ '@odata.type': bodyOf(settings)['@odata.type'], ...created });
      if (!configuration) throw new Error(`Graph answered an enrollment configuration of another kind`);
      return { ...configuration, adopted: false };
    },
    async remove(id) {
      await graph.delete(path(id));
    },
    async update(id, settings) {
      await graph.patch(path(id), bodyOf(settings));
    },
    async setPriority(id, priority) {
      await graph.post(`${path(id)}/setPriority`, { priority });
    },
    async assign(id, targets) {
      const assignments = targets.allUsers
        ? [{ target: { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget' } }]
        : targets.groupExternalIds.map((groupId) => ({
            target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId },
          }));
      await graph.post(`${path(id)}/assign`, { enrollmentConfigurationAssignments: assignments });
    },
  };
}

/**
 * The device-management area on Graph v1.0: enrollment restrictions on Intune; the enrollment attempts our
 * policies would decide are not available (capability `blockedEnrollments`, graph-capabilities.ts).
 */
export function graphDeviceManagement(graph: GraphTenantClient): CloudDeviceManagementProvider {
  return {
    enrollmentConfigurations: graphEnrollmentConfigurations(graph),
    listEnrollmentAttempts: () => unsupportedCall('blockedEnrollments'),
  };
}
