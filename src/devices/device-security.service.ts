import { groupByKey } from '../core/loaders.js';
import { InvalidRequestError, NotFoundError, type FieldProblem } from '../core/errors.js';
import { anyOf, atLeast, atMost, containsText } from '../core/lean-conditions.js';
import { findLeanPage, type LeanCondition } from '../core/lean-read.js';
import type { LeanSelection } from '../core/lean-selection.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { DEVICE_RECOMMENDATIONS } from './device-recommendations.js';
import { Device } from './device.entity.js';
import { DeviceActionKind, DeviceRiskLevel } from './device.enums.js';
import {
  TimelineEntryKind,
  type DeviceFilter,
  type DeviceRecommendation,
  type DeviceRecommendationPage,
  type DeviceTimelineEntry,
} from './device.types.js';

/** risk_rank as device-sync.ts derives it from risk_level. */
const RISK_RANKS: Record<DeviceRiskLevel, number> = {
  [DeviceRiskLevel.HIGH]: 3,
  [DeviceRiskLevel.MEDIUM]: 2,
  [DeviceRiskLevel.LOW]: 1,
  [DeviceRiskLevel.NO_DATA]: 0,
};

/** The codes the recommendations list shows (a device may carry others the cloud adds later: not listed). */
const KNOWN_CODES = Object.keys(DEVICE_RECOMMENDATIONS);

/** How much of a device's history the detail shows. */
export const TIMELINE_LENGTH = 50;

function conditionsOf(filter: DeviceFilter): LeanCondition[] {
  const problems: FieldProblem[] = [];
  for (const field of ['exposureMin', 'exposureMax'] as const) {
    const value = filter[field];
    if (value !== null && value !== undefined && (value < 0 || value > 100))
      problems.push({ field, problem: 'must be between 0 and 100' });
  }
  if ((filter.exposureMin ?? 0) > (filter.exposureMax ?? 100))
    problems.push({ field: 'exposureMin', problem: 'must not be above exposureMax' });
  if (problems.length > 0) throw new InvalidRequestError('Invalid device filter', problems);
  return [
    // By the rank sync derives from the level (one to one), so that devices_risk_order_index serves the filter's
    // page and count; a second condition on risk_level would only make the planner underestimate the rows.
    ...anyOf(
      'risk_rank',
      filter.riskLevel?.map((level) => RISK_RANKS[level]),
    ),
    ...atLeast('exposure_score', filter.exposureMin),
    ...atMost('exposure_score', filter.exposureMax),
    ...anyOf('os_platform', filter.osPlatform),
    ...anyOf('health_state', filter.healthState),
    ...anyOf('onboarding_status', filter.onboardingStatus),
    ...containsText('search', ['device_name'], filter.search),
  ];
}

interface TimelineRow {
  device_id: string;
  at: string;
  source: 'action' | 'alert';
  id: string;
  kind: string;
  status: string;
  detail: string | null;
  reason: string | null;
  threats_found: number | null;
  duration_seconds: number | null;
  failure_reason: string | null;
}

/**
 * The isolation actions, scans and alerts of several devices, newest first, TIMELINE_LENGTH per device at
 * most, in one statement (the timeline loader's batch).
 */
const TIMELINE_SQL = `
  select * from (
    select entries.*, row_number() over (partition by device_id order by sort_at desc, id desc) as position
    from (
      select device_id, to_json(coalesce(completed_at, started_at, requested_at)) #>> '{}' as at,
             'action' as source, id, kind, status, coalesce(isolation_type, scan_type) as detail, reason,
             threats_found, duration_seconds, failure_reason, requested_at as sort_at
        from device_actions where organization_id = ? and environment = ? and device_id in (?)
      union all
      select device_id, to_json(created_at) #>> '{}', 'alert', id, severity, status, title, category, null,
             null, null, created_at
        from security_alerts where organization_id = ? and environment = ? and device_id in (?)
    ) entries
  ) ranked where position <= ? order by device_id, position`;

function timelineEntryOf(row: TimelineRow): DeviceTimelineEntry {
  const base = {
    at: new Date(row.at),
    status: row.status,
    actionId: null,
    alertId: null,
    threatsFound: row.threats_found,
    durationSeconds: row.duration_seconds,
  };
  if (row.source === 'alert')
    return {
      ...base,
      kind: TimelineEntryKind.ALERT,
      alertId: row.id,
      summary: `${row.kind} alert: ${row.detail} (${row.reason})`,
    };
  const failure = row.failure_reason ? `: ${row.failure_reason}` : '';
  if (row.kind === DeviceActionKind.SCAN)
    return {
      ...base,
      kind: TimelineEntryKind.SCAN,
      actionId: row.id,
      summary:
        row.threats_found === null
          ? `${row.detail} antivirus scan ${row.status}${failure}`
          : `${row.detail} antivirus scan found ${row.threats_found} threat(s) in ${row.duration_seconds} s`,
    };
  const isolate = row.kind === DeviceActionKind.ISOLATE;
  // The type is spelled "Full isolation" / "Selective isolation" (it read "Selective isolation isolation").
  const isolation = /isolation$/i.test(row.detail ?? '') ? row.detail : `${row.detail} isolation`;
  return {
    ...base,
    kind: isolate ? TimelineEntryKind.ISOLATION : TimelineEntryKind.RELEASE,
    actionId: row.id,
    summary: `${isolate ? isolation : 'Release from isolation'} ${row.status}${failure} (reason: ${row.reason})`,
  };
}

/**
 * Device security of a tenant (SPEC 2.6 "Device", 4.2): the list, a device with its timeline, and the
 * recommendations with their stored device counts. Devices come from the cloud through sync (device-sync.ts).
 */
/** The columns the Device type's computed fields read (lean-selection.ts): `timeline` is its loader's, by id. */
const DEVICE_COMPUTED_FIELDS: LeanSelection<Device>['computed'] = { timeline: [] };

export class DeviceSecurityService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Riskiest first (risk level, then exposure score), then by name; one statement for page and total. */
  async list(
    tenantId: string,
    filter: DeviceFilter,
    page: PageArgs,
    /** The fields asked of each device (selectedItemFields): only their columns are read; all without it. */
    fields?: ReadonlySet<string>,
  ): Promise<Page<Device>> {
    const devices = await findLeanPage(
      this.ctx,
      Device,
      { tenantId },
      page,
      { riskRank: 'desc', exposureScore: 'desc', deviceName: 'asc', id: 'asc' },
      conditionsOf(filter),
      undefined,
      { fields, computed: DEVICE_COMPUTED_FIELDS },
    );
    if (devices.items.length === 0) await this.tenant(tenantId);
    return devices;
  }

  /** One device of the tenant; 404 when absent, another tenant's or another organization's. */
  async get(tenantId: string, deviceId: string): Promise<Device> {
    const device = await this.ctx.em.findOne(Device, { id: deviceId, tenantId }, { refresh: true });
    if (device) return device;
    await this.tenant(tenantId);
    throw new NotFoundError('Device', deviceId);
  }

  /** The timelines of several devices (the device timeline loader's batch), in the order of `deviceIds`. */
  async timelines(deviceIds: readonly string[]): Promise<DeviceTimelineEntry[][]> {
    const { organizationId, environment } = this.ctx.scope;
    const ids = [...deviceIds];
    const rows = await this.ctx.em.execute<TimelineRow[]>(TIMELINE_SQL, [
      organizationId,
      environment,
      ids,
      organizationId,
      environment,
      ids,
      TIMELINE_LENGTH,
    ]);
    return groupByKey(deviceIds, rows, (row) => row.device_id).map((group) => group.map(timelineEntryOf));
  }

  /** Open recommendations with the number of devices each concerns: High impact first, then most devices. */
  async recommendations(tenantId: string, page: PageArgs): Promise<DeviceRecommendationPage> {
    await this.tenant(tenantId);
    // The counts the devices' triggers keep (device-recommendation-count.entity.ts): one row per known code at
    // most, through the table's key, whatever the number of devices.
    const rows = await this.ctx.em.execute<Array<{ code: string; n: number }>>(
      `select code, devices as n from device_recommendation_counts
        where organization_id = ? and environment = ? and tenant_id = ? and code in (?)`,
      [this.ctx.scope.organizationId, this.ctx.scope.environment, tenantId, KNOWN_CODES],
    );
    const all: DeviceRecommendation[] = rows
      .map((row) => ({ id: row.code, ...DEVICE_RECOMMENDATIONS[row.code], affectedDeviceCount: row.n }))
      .sort(
        (a, b) =>
          Number(b.impact === 'High') - Number(a.impact === 'High') ||
          b.affectedDeviceCount - a.affectedDeviceCount ||
          a.title.localeCompare(b.title),
      );
    return {
      items: all.slice(pageOffset(page), pageOffset(page) + page.limit),
      pageInfo: { page: page.page, limit: page.limit, total: all.length },
    };
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
