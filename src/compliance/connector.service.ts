import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { CloudConnectorUserMapping } from '../cloud/connector-source.provider.js';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  ServiceUnavailableError,
  type FieldProblem,
} from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { DEFAULT_SCHEDULE_HOURS } from './connector-catalog.js';
import { checkMappingTargets } from './connector-targets.js';
import { checkCredentialUrls } from './connector-urls.js';
import { rescheduled } from './connector-schedule.js';
import { ConnectorRun } from './connector-run.entity.js';
import {
  checkCredentials,
  checkName,
  checkSchedule,
  checkSourceType,
  checkUserMapping,
  throwIfProblems,
} from './connector.validation.js';
import { ComplianceConnector } from './connector.entity.js';
import { ConnectorAction, ConnectorHealth, ConnectorStatus } from './connector.enums.js';
import { connectorStatistics } from './connector-statistics.js';
import type {
  ConnectorRunPage,
  ConnectorStatusReport,
  CreateConnectorInput,
  UpdateConnectorInput,
} from './connector.types.js';

/** A source outage (maintenance, 5xx) usually outlasts a database hiccup: clients wait a minute. */
export const SOURCE_OUTAGE_RETRY_AFTER_SECONDS = 60;

/** The one place connector status moves, with its event (also used by the import job). */
export async function moveConnectorStatus(
  ctx: ServiceContext,
  em: EntityManager,
  tenant: Tenant,
  connector: ComplianceConnector,
  to: ConnectorStatus,
  reason: string,
): Promise<void> {
  const from = connector.status;
  connector.status = to;
  connector.updatedAt = ctx.clock.now();
  await em.flush();
  await emitEvent(
    { ...ctx, em },
    {
      kind: 'connector.status_changed',
      severity: to === ConnectorStatus.PAUSED && connector.configurationError ? 'high' : 'informational',
      tenant: tenant.eventRef,
      details: {
        connectorId: connector.id,
        name: connector.name,
        category: connector.category,
        sourceType: connector.sourceType,
        from,
        to,
        reason,
        configurationError: connector.configurationError,
      },
      actionPath: `/tenants/${tenant.id}/compliance/connectors/${connector.id}`,
    },
  );
}

/**
 * Compliance data connectors (SPEC 2.6, 3.3, 4.2 /api/compliance/connectors...; docs/compliance.md).
 * A configuration is saved only after a test connection through the provider succeeded with it; the
 * credentials are sealed like webhook secrets and only their field names ever leave the server.
 */
export class ConnectorService {
  constructor(private readonly ctx: ServiceContext) {}

  private get secretBox() {
    return webhookSettingsOf(this.ctx).secretBox;
  }

  async list(tenantId: string, page: PageArgs): Promise<Page<ComplianceConnector>> {
    await new TenantService(this.ctx).get(tenantId);
    return findLeanPage(this.ctx, ComplianceConnector, { tenantId }, page, { createdAt: 'desc', id: 'desc' });
  }

  async get(tenantId: string, id: string): Promise<ComplianceConnector> {
    await new TenantService(this.ctx).get(tenantId);
    const connector = await this.ctx.em.findOne(ComplianceConnector, { id, tenantId }, { refresh: true });
    if (!connector) throw new NotFoundError('Connector', id);
    return connector;
  }

  async create(tenantId: string, input: CreateConnectorInput): Promise<ComplianceConnector> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const problems: FieldProblem[] = [];
    checkName(input.name, problems);
    checkSourceType(input.category, input.sourceType, problems);
    const credentials = checkCredentials(input.category, input.sourceType, input.credentials, problems);
    await checkCredentialUrls(this.ctx, credentials, problems);
    const userMapping = checkUserMapping(input.userMapping, problems);
    await checkMappingTargets(this.ctx, tenant, userMapping, problems);
    const scheduleHours = input.scheduleHours ?? DEFAULT_SCHEDULE_HOURS;
    checkSchedule(scheduleHours, problems);
    throwIfProblems(problems);
    await this.testConnection(tenant, input.sourceType, credentials);
    const now = this.ctx.clock.now();
    const connector = this.ctx.em.create(ComplianceConnector, {
      ...this.ctx.scope,
      tenantId,
      name: input.name.trim(),
      category: input.category,
      sourceType: input.sourceType,
      userMapping,
      scheduleHours,
      credentials: this.secretBox.seal(JSON.stringify(credentials)),
      credentialFields: Object.keys(credentials),
      // The first import at the scheduler's next tick, then every scheduleHours.
      nextRunAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await this.ctx.em.flush();
    return connector;
  }

  /**
   * Pause, resume and/or reconfigure (only the given fields change); a reconfiguration or a resume first
   * passes a test connection. Nothing given is a no-op answered with the connector as it is, like an empty
   * PATCH of a user (docs/compliance.md): nothing is written, no event.
   */
  async update(tenantId: string, id: string, input: UpdateConnectorInput): Promise<ComplianceConnector> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const current = await this.get(tenantId, id);
    const reconfigured =
      input.name !== undefined ||
      input.sourceType !== undefined ||
      input.credentials !== undefined ||
      input.userMapping !== undefined ||
      input.scheduleHours !== undefined;
    if (!reconfigured && input.action === undefined) return current;
    const problems: FieldProblem[] = [];
    if (input.name !== undefined) checkName(input.name, problems);
    const sourceType = input.sourceType ?? current.sourceType;
    if (input.sourceType !== undefined) checkSourceType(current.category, sourceType, problems);
    if (input.sourceType !== undefined && input.sourceType !== current.sourceType && !input.credentials)
      problems.push({ field: 'credentials', problem: `a new source type needs its credentials` });
    const credentials = input.credentials
      ? checkCredentials(current.category, sourceType, input.credentials, problems)
      : (JSON.parse(this.secretBox.open(current.credentials)) as Record<string, string>);
    if (input.credentials) await checkCredentialUrls(this.ctx, credentials, problems);
    const userMapping = input.userMapping
      ? checkUserMapping(input.userMapping, problems)
      : current.userMapping;
    if (input.userMapping) await checkMappingTargets(this.ctx, tenant, userMapping, problems);
    if (input.scheduleHours !== undefined) checkSchedule(input.scheduleHours, problems);
    throwIfProblems(problems);
    this.checkMove(current, input.action);

    if (reconfigured || input.action === ConnectorAction.RESUME)
      await this.testConnection(tenant, sourceType, credentials);

    return this.ctx.em.transactional(async (em) => {
      const connector = await em.findOneOrFail(
        ComplianceConnector,
        { id },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      this.checkMove(connector, input.action);
      const now = this.ctx.clock.now();
      if (input.name !== undefined) connector.name = input.name.trim();
      if (input.sourceType !== undefined) connector.sourceType = input.sourceType;
      if (input.credentials) {
        connector.credentials = this.secretBox.seal(JSON.stringify(credentials));
        connector.credentialFields = Object.keys(credentials);
      }
      connector.userMapping = userMapping;
      if (input.scheduleHours !== undefined) {
        connector.scheduleHours = input.scheduleHours;
        connector.nextRunAt = await rescheduled(em, connector, now);
      }
      connector.updatedAt = now;
      if (input.action === ConnectorAction.PAUSE) {
        connector.pausedBy = this.ctx.actor;
        connector.nextRunAt = null;
        await moveConnectorStatus(
          this.ctx,
          em,
          tenant,
          connector,
          ConnectorStatus.PAUSED,
          `Paused by ${this.ctx.actor}`,
        );
      } else if (input.action === ConnectorAction.RESUME) {
        connector.pausedBy = null;
        connector.configurationError = null;
        connector.consecutiveFailures = 0;
        connector.nextRunAt = now;
        await moveConnectorStatus(
          this.ctx,
          em,
          tenant,
          connector,
          ConnectorStatus.ACTIVE,
          `Resumed by ${this.ctx.actor}`,
        );
      }
      await em.flush();
      return connector;
    });
  }

  async status(tenantId: string, id: string): Promise<ConnectorStatusReport> {
    const connector = await this.get(tenantId, id);
    const statistics = await connectorStatistics(this.ctx, connector);
    const health =
      connector.status === ConnectorStatus.PAUSED
        ? connector.configurationError
          ? ConnectorHealth.ERROR
          : ConnectorHealth.PAUSED
        : connector.consecutiveFailures > 0
          ? ConnectorHealth.DEGRADED
          : ConnectorHealth.HEALTHY;
    return {
      ...statistics,
      connectorId: connector.id,
      status: connector.status,
      health,
      configurationError: connector.configurationError,
      consecutiveFailures: connector.consecutiveFailures,
      nextRunAt: connector.nextRunAt,
    };
  }

  /** Runs, the latest first, each with its figures; with the connector's statistics over every run. */
  async history(tenantId: string, id: string, page: PageArgs): Promise<ConnectorRunPage> {
    const connector = await this.get(tenantId, id);
    const runs = await findLeanPage(this.ctx, ConnectorRun, { connectorId: id }, page, {
      scheduledFor: 'desc',
      id: 'desc',
    });
    return { ...runs, statistics: await connectorStatistics(this.ctx, connector) };
  }

  private checkMove(connector: ComplianceConnector, action: ConnectorAction | undefined): void {
    if (!action) return;
    const to = action === ConnectorAction.PAUSE ? ConnectorStatus.PAUSED : ConnectorStatus.ACTIVE;
    if (connector.status === to)
      throw new ConflictError(`Connector ${connector.id} is already ${to}`, {
        from: connector.status,
        to,
        allowed: [
          connector.status === ConnectorStatus.ACTIVE ? ConnectorStatus.PAUSED : ConnectorStatus.ACTIVE,
        ],
      });
  }

  private async testConnection(
    tenant: Tenant,
    sourceType: string,
    credentials: Record<string, string>,
  ): Promise<void> {
    const refusal = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).connectorSources.testConnectorConnection({
      sourceType,
      credentials,
    });
    if (!refusal) return;
    // A source that is down says nothing about what the client sent: an upstream outage (503), not a 400.
    if (refusal.kind === 'unavailable')
      throw new ServiceUnavailableError(
        SOURCE_OUTAGE_RETRY_AFTER_SECONDS,
        `${sourceType} cannot be reached (${refusal.reason}); nothing changed, retry later`,
        { source: sourceType, reason: refusal.reason },
      );
    throw new InvalidRequestError(`The test connection to ${sourceType} failed: ${refusal.reason}`, [
      { field: 'credentials', problem: refusal.reason },
    ]);
  }
}

export function cloudUserMapping(mapping: ComplianceConnector['userMapping']): CloudConnectorUserMapping {
  return {
    strategy: mapping.strategy,
    mappings: mapping.mappings,
    unmatched: mapping.unmatched,
    fallbackMailbox: mapping.fallbackMailbox,
  };
}
