import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { MICROSOFT365_CAPABILITIES } from '../cloud/microsoft365/graph-capabilities.js';
import { adminConsentUrl } from '../cloud/microsoft365/graph-consent.js';
import { graphTransportOf } from '../cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../cloud/microsoft365/microsoft365.settings.js';
import { ConflictError, InvalidRequestError, type FieldProblem } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { testMicrosoft365Connection } from './cloud-connection-test.js';
import { CloudConnection } from './cloud-connection.entity.js';
import { CloudProviderKind } from './cloud-connection.enums.js';
import type { CloudCapability, CloudConnectionView, ConnectCloudInput } from './cloud-connection.types.js';
import { checkConnectInput } from './cloud-connection.validation.js';

function capabilitiesOf(provider: CloudProviderKind | null, granted: readonly string[]): CloudCapability[] {
  if (provider === null) return [];
  if (provider === CloudProviderKind.SIMULATED)
    // The simulated cloud has every area, with nothing to grant.
    return MICROSOFT365_CAPABILITIES.map(({ capability }) => ({
      capability,
      available: true,
      api: 'the built-in simulated cloud',
      permissions: [],
      missingPermissions: [],
      reason: null,
    }));
  const have = new Set(granted);
  return MICROSOFT365_CAPABILITIES.map((capability) => ({
    capability: capability.capability,
    available: capability.available,
    api: capability.graphApi,
    permissions: [...capability.permissions],
    missingPermissions: capability.permissions.filter((permission) => !have.has(permission)),
    reason: capability.reason ?? null,
  }));
}

const passedMessage = (organization: string) =>
  `A token for the partner tenant and GET /organization ("${organization}") succeeded`;

const CUSTOMER_PLACEHOLDER = '{customerTenantId}';

export function viewOf(connection: CloudConnection | null, loginUrl = ''): CloudConnectionView {
  if (!connection)
    return {
      connected: false,
      provider: null,
      partnerTenantId: null,
      clientId: null,
      clientSecretSet: false,
      providerActive: false,
      lastTest: null,
      grantedPermissions: [],
      adminConsentUrl: null,
      capabilities: [],
      connectedAt: null,
    };
  return {
    connected: true,
    provider: connection.provider,
    partnerTenantId: connection.partnerTenantId,
    clientId: connection.clientId,
    clientSecretSet: connection.clientSecret !== null,
    // Both providers are what the live environment acts on once saved (src/cloud-connection/connected-clouds.ts).
    providerActive: true,
    lastTest: {
      succeeded: connection.lastTestSucceeded,
      at: connection.lastTestedAt,
      message: connection.lastTestMessage,
    },
    grantedPermissions: connection.grantedPermissions,
    adminConsentUrl: connection.clientId
      ? adminConsentUrl(loginUrl, CUSTOMER_PLACEHOLDER, connection.clientId).replace(
          encodeURIComponent(CUSTOMER_PLACEHOLDER),
          CUSTOMER_PLACEHOLDER,
        )
      : null,
    capabilities: capabilitiesOf(connection.provider, connection.grantedPermissions),
    connectedAt: connection.connectedAt,
  };
}

/**
 * The live environment's cloud connection (DECISIONS "The upstream cloud"; docs/microsoft365.md). Saving
 * replaces the connection only after the new credentials passed the connection test; nothing is stored
 * otherwise. The permission table makes every action live-only (a sandbox credential never reaches it).
 */
export class CloudConnectionService {
  constructor(private readonly ctx: ServiceContext) {}

  async get(): Promise<CloudConnectionView> {
    return this.view(await this.find());
  }

  async connect(input: ConnectCloudInput): Promise<CloudConnectionView> {
    const credentials = checkConnectInput(input);
    // Outside the transaction: the test makes network calls and writes nothing.
    const tested = credentials
      ? await testMicrosoft365Connection(microsoft365SettingsOf(this.ctx), credentials)
      : null;
    const now = this.ctx.clock.now();
    const fields = {
      provider: input.provider,
      partnerTenantId: credentials?.partnerTenantId ?? null,
      clientId: credentials?.clientId ?? null,
      clientSecret: credentials ? webhookSettingsOf(this.ctx).secretBox.seal(credentials.clientSecret) : null,
      grantedPermissions: tested?.roles ?? [],
      lastTestedAt: now,
      lastTestSucceeded: true,
      lastTestMessage: tested ? passedMessage(tested.organization.displayName) : null,
      connectedBy: this.ctx.actor,
      connectedAt: now,
    };
    const existing = await this.find();
    if (existing?.clientId) graphTransportOf(this.ctx).forget(existing.clientId);
    try {
      if (existing) {
        this.ctx.em.assign(existing, fields);
      } else {
        this.ctx.em.create(CloudConnection, { ...this.ctx.scope, ...fields });
      }
      await this.ctx.em.flush();
    } catch (error) {
      // Two connects at once: the other one won; its connection stands.
      if (error instanceof UniqueConstraintViolationException)
        throw new ConflictError('The cloud connection was saved by another request at the same time; retry');
      throw error;
    }
    return this.view(await this.find());
  }

  /**
   * Tests the saved connection again (a fresh token for the partner tenant, then GET /organization) and
   * records the outcome, success or refusal, as its last test: an expired or revoked secret shows here.
   * Microsoft unreachable: 503, nothing recorded. No connection: 409.
   */
  async test(): Promise<CloudConnectionView> {
    const connection = await this.find();
    if (!connection) throw new ConflictError('There is no cloud connection to test: save one first');
    const result = {
      lastTestedAt: this.ctx.clock.now(),
      lastTestSucceeded: true,
      lastTestMessage: null as string | null,
    };
    if (connection.provider === CloudProviderKind.MICROSOFT365) {
      try {
        const tested = await testMicrosoft365Connection(microsoft365SettingsOf(this.ctx), {
          partnerTenantId: connection.partnerTenantId ?? '',
          clientId: connection.clientId ?? '',
          clientSecret: webhookSettingsOf(this.ctx).secretBox.open(connection.clientSecret ?? ''),
        });
        connection.grantedPermissions = tested.roles;
        result.lastTestMessage = passedMessage(tested.organization.displayName);
      } catch (error) {
        if (!(error instanceof InvalidRequestError)) throw error;
        const fields = (error.details.fields ?? []) as FieldProblem[];
        result.lastTestSucceeded = false;
        result.lastTestMessage = [error.message, ...fields.map((f) => `${f.field}: ${f.problem}`)].join('; ');
      }
    }
    this.ctx.em.assign(connection, result);
    await this.ctx.em.flush();
    return this.view(connection);
  }

  /**
   * Removes the connection (and forgets its cached tokens); the live environment then has no cloud.
   * Idempotent, like a DELETE: without a connection it answers the same "not connected" view.
   */
  async disconnect(): Promise<CloudConnectionView> {
    const existing = await this.find();
    if (existing) {
      if (existing.clientId) graphTransportOf(this.ctx).forget(existing.clientId);
      await this.ctx.em.remove(existing).flush();
    }
    return viewOf(null);
  }

  private view(connection: CloudConnection | null): CloudConnectionView {
    return viewOf(connection, microsoft365SettingsOf(this.ctx).loginUrl);
  }

  private find(): Promise<CloudConnection | null> {
    return this.ctx.em.findOne(
      CloudConnection,
      { ...this.ctx.scope },
      { refresh: true, populate: ['clientSecret'] },
    );
  }
}
