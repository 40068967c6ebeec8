import { upsertRecords } from '../sync/rows.js';
import type { SyncStep } from '../sync/sync-step.js';
import { allPages } from '../cloud/pages.js';

/**
 * The cloud's devices in our rows: the mapping is the statement below (the cloud's record → our columns; the
 * user by the cloud's id for it). A known device's isolation is read back (ISOLATION_SQL) only where the cloud
 * names the action that set it; otherwise it follows our own actions (device-action.task.ts). Devices gone
 * upstream are kept.
 *
 * Each upsert is ONE statement over the whole snapshot (jsonb_to_recordset): new rows are inserted, known rows
 * take the cloud's values only when something differs, and `inserted` tells the two apart. Parameters:
 * organization, environment, tenant, now, the JSON records (upsertRecords, src/sync/rows.ts).
 */
const DEVICES_SQL = `
  insert into devices (id, organization_id, environment, tenant_id, external_id, device_name, os_platform,
    os_version, ownership, manufacturer, model, enrolled_at, compliance_state, compliance_grace_expires_at,
    user_id, risk_level, risk_rank, exposure_score, health_state, onboarding_status, last_seen_at,
    open_recommendations, isolation_state, isolation_type, created_at, updated_at)
  select gen_random_uuid(), s.org, s.env, s.tenant, r."externalId", r."deviceName", r."osPlatform", r."osVersion",
    r.ownership, r.manufacturer, r.model, r."enrolledAt", r."complianceState", r."complianceGraceExpiresAt",
    u.id, r."riskLevel",
    case r."riskLevel" when 'High' then 3 when 'Medium' then 2 when 'Low' then 1 else 0 end,
    r."exposureScore", r."healthState", r."onboardingStatus", r."lastSeenAt",
    array(select jsonb_array_elements_text(r."openRecommendations")),
    case when r.isolated then 'Isolated' else 'Not isolated' end,
    case when r.isolated then r."isolationType" || ' isolation' end, s.now, s.now
  from (select ?::uuid as org, ?::text as env, ?::uuid as tenant, ?::timestamptz as now) s
  cross join jsonb_to_recordset(?::jsonb) as r("externalId" text, "deviceName" text, "osPlatform" text,
    "osVersion" text, ownership text, manufacturer text, model text, "enrolledAt" timestamptz,
    "complianceState" text, "complianceGraceExpiresAt" timestamptz, "userExternalId" text, "riskLevel" text,
    "exposureScore" int, "healthState" text, "onboardingStatus" text, "lastSeenAt" timestamptz,
    "openRecommendations" jsonb, isolated boolean, "isolationType" text)
  left join users u on u.organization_id = s.org and u.environment = s.env and u.tenant_id = s.tenant
    and u.external_id = r."userExternalId"
  on conflict (organization_id, environment, tenant_id, external_id) do update set
    device_name = excluded.device_name, os_platform = excluded.os_platform, os_version = excluded.os_version,
    ownership = excluded.ownership, manufacturer = excluded.manufacturer, model = excluded.model,
    enrolled_at = excluded.enrolled_at, compliance_state = excluded.compliance_state,
    compliance_grace_expires_at = excluded.compliance_grace_expires_at, user_id = excluded.user_id,
    risk_level = excluded.risk_level, risk_rank = excluded.risk_rank, exposure_score = excluded.exposure_score,
    health_state = excluded.health_state, onboarding_status = excluded.onboarding_status,
    last_seen_at = excluded.last_seen_at, open_recommendations = excluded.open_recommendations,
    updated_at = excluded.updated_at
  where (devices.device_name, devices.os_platform, devices.os_version, devices.ownership, devices.manufacturer,
      devices.model, devices.enrolled_at, devices.compliance_state, devices.compliance_grace_expires_at,
      devices.user_id, devices.risk_level, devices.exposure_score, devices.health_state,
      devices.onboarding_status, devices.last_seen_at, devices.open_recommendations)
    is distinct from (excluded.device_name, excluded.os_platform, excluded.os_version, excluded.ownership,
      excluded.manufacturer, excluded.model, excluded.enrolled_at, excluded.compliance_state,
      excluded.compliance_grace_expires_at, excluded.user_id, excluded.risk_level, excluded.exposure_score,
      excluded.health_state, excluded.onboarding_status, excluded.last_seen_at, excluded.open_recommendations)
  returning (xmax = 0) as inserted`;

/**
 * A known device's isolation changed outside our API (the Defender portal, an automated investigation), read
 * back from the cloud's latest isolation or release action (`isolationActionId`). Ours stands while an
 * isolation or release of ours is in flight (its job sets the outcome) or ended after this sync began to
 * read (the snapshot predates it). One statement. Parameters: now, organization, environment, tenant, the
 * sync's read time, the JSON records of devices whose cloud names the action.
 */
const ISOLATION_SQL = `
  update devices d set isolation_state = n.state, isolation_type = n.type, updated_at = s.now
  from (select ?::timestamptz as now) s,
    (select r."externalId",
        case when r.isolated then 'Isolated' else 'Not isolated' end as state,
        case when r.isolated then r."isolationType" || ' isolation' end as type
       from jsonb_to_recordset(?::jsonb) as r("externalId" text, isolated boolean, "isolationType" text)) n
  where d.organization_id = ? and d.environment = ? and d.tenant_id = ? and d.external_id = n."externalId"
    and (d.isolation_state, d.isolation_type) is distinct from (n.state, n.type)
    and not exists (select 1 from device_actions a where a.device_id = d.id and a.kind in ('Isolate', 'Release')
      and (a.status in ('Pending', 'InProgress') or a.completed_at > ?::timestamptz))
  returning d.id`;

/** Devices, after the users they belong to; one statement, and one more for isolation read back. */
export const devicesSyncStep: SyncStep = {
  name: 'devices',
  after: ['users'],
  async read({ cloud, ctx }) {
    const readAt = ctx.clock.now();
    const pages = cloud.security.listDevices();
    const devices = await allPages(pages);
    const notListed = pages.notListed;
    const isolations = devices
      .filter((device) => device.isolationActionId)
      .map(({ externalId, isolated, isolationType }) => ({ externalId, isolated, isolationType }));
    return async ({ ctx, tenant, now, warn }) => {
      const params = [ctx.scope.organizationId, ctx.scope.environment, tenant.id, now];
      const upserted = await upsertRecords(ctx.em, DEVICES_SQL, params, devices);
      const counts: Record<string, number> = {
        devicesCreated: upserted.created,
        devicesUpdated: upserted.updated,
      };
      if (notListed) {
        // What the cloud holds that our devices cannot show truthfully: counted, so an MSP knows it exists.
        counts.devicesNotListedDefenderOnly = notListed.defenderOnly;
        counts.devicesNotListedOtherSystems = notListed.otherSystems;
        if (notListed.defenderOnly + notListed.otherSystems > 0)
          warn(
            `devices: ${notListed.defenderOnly} Defender for Endpoint machine(s) not managed by Intune ` +
              `(servers, unmanaged computers) and ${notListed.otherSystems} Intune device(s) of other ` +
              'systems (ChromeOS…) are not listed: our devices hold Intune-managed Windows, macOS, Linux, iOS ' +
              'and Android devices',
          );
      }
      if (isolations.length === 0) return counts;
      const changed = await ctx.em.execute<{ id: string }[]>(ISOLATION_SQL, [
        now,
        JSON.stringify(isolations),
        ...params.slice(0, 3),
        readAt,
      ]);
      return changed.length > 0 ? { ...counts, devicesIsolationChangedUpstream: changed.length } : counts;
    };
  },
};
