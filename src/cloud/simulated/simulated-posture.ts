import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CloudError } from '../cloud-error.js';
import type { Clock } from '../../core/clock.js';
import {
  type CloudBarrierPolicySet,
  type CloudControlApplyOutcome,
  type CloudSecurityControlRecord,
} from '../security-posture.provider.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import { SIMULATED_SECURITY_CONTROLS } from './simulated-security-controls.js';

/** Stored control state; `applyFailure` makes the cloud refuse an apply (tests and demo faults). */
type StoredControl = CloudSecurityControlRecord & { applyFailure?: string | null };

/** A number in [0, 1) from the tenant and control alone: its own stream, so no other generated data moves. */
function draw(tenantExternalId: string, controlId: string): number {
  return (
    createHash('sha256').update(`posture:${tenantExternalId}:${controlId}`).digest().readUInt32BE(0) / 2 ** 32
  );
}

/** Controls a generated tenant meets at least: a typical customer has done the basics (health stays fair). */
const MIN_MET_CONTROLS = 7;

/**
 * A tenant's generated controls: those drawing under 0.6 are met, and at least MIN_MET_CONTROLS of them (the
 * lowest draws), so a generated tenant's secure score stays above the health warning threshold.
 */
function generatedControls(tenantExternalId: string): CloudSecurityControlRecord[] {
  const drawn = SIMULATED_SECURITY_CONTROLS.map((control) => ({
    ...control,
    draw: draw(tenantExternalId, control.controlId),
  }));
  const met = Math.max(MIN_MET_CONTROLS, drawn.filter((control) => control.draw < 0.6).length);
  const metIds = new Set(
    [...drawn]
      .sort((a, b) => a.draw - b.draw)
      .slice(0, met)
      .map((control) => control.controlId),
  );
  return drawn.map(({ controlId, applySupported }) => ({
    controlId,
    applySupported,
    compliant: metIds.has(controlId),
  }));
}

/**
 * The simulated cloud's security posture: a tenant's controls are generated on first read (at least 7 of
 * 12 met, deterministic per tenant) and stored as `security_control` objects; applying one flips it.
 * Information-barrier policy sets are stored as one `barrier_policy_set` object per tenant.
 */
export class SimulatedPosture {
  constructor(
    private readonly em: () => EntityManager,
    private readonly clock: Clock,
  ) {}

  async listSecurityControls(tenantExternalId: string): Promise<CloudSecurityControlRecord[]> {
    const controls = await this.controls(this.em(), tenantExternalId);
    return controls.map(({ controlId, compliant, applySupported }) => ({
      controlId,
      compliant,
      applySupported,
    }));
  }

  async previewSecurityControl(
    tenantExternalId: string,
    controlId: string,
  ): Promise<CloudControlApplyOutcome> {
    const control = (await this.controls(this.em(), tenantExternalId)).find((c) => c.controlId === controlId);
    if (!control || !control.applySupported) return 'not supported';
    return control.compliant ? 'already compliant' : 'applied';
  }

  async applySecurityControl(
    tenantExternalId: string,
    controlId: string,
    requestKey?: string,
  ): Promise<CloudControlApplyOutcome> {
    return this.em().transactional(async (em) => {
      if (requestKey) {
        const seen = await em.findOne(SimulatedCloudObject, {
          tenantExternalId,
          kind: 'write_request',
          externalId: requestKey,
        });
        if (seen) return (seen.data as { outcome: CloudControlApplyOutcome }).outcome;
      }
      const outcome = await this.applyNow(em, tenantExternalId, controlId);
      if (requestKey)
        em.create(SimulatedCloudObject, {
          id: randomUUID(),
          tenantExternalId,
          kind: 'write_request',
          externalId: requestKey,
          data: { outcome },
          updatedAt: this.clock.now(),
        });
      await em.flush();
      return outcome;
    });
  }

  private async applyNow(
    em: EntityManager,
    tenantExternalId: string,
    controlId: string,
  ): Promise<CloudControlApplyOutcome> {
    await this.controls(em, tenantExternalId);
    const row = await em.findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'security_control',
      externalId: controlId,
    });
    if (!row) return 'not supported';
    const control = row.data as unknown as StoredControl;
    if (control.applyFailure)
      throw new CloudError('Refused', control.applyFailure, { provider: 'simulated' });
    if (!control.applySupported) return 'not supported';
    if (control.compliant) return 'already compliant';
    row.data = { ...control, compliant: true };
    row.updatedAt = this.clock.now();
    await em.flush();
    return 'applied';
  }

  async applyInformationBarriers(tenantExternalId: string, policySet: CloudBarrierPolicySet): Promise<void> {
    const now = this.clock.now();
    await this.em()
      .createQueryBuilder(SimulatedCloudObject)
      .insert({
        id: randomUUID(),
        tenantExternalId,
        kind: 'barrier_policy_set',
        externalId: 'current',
        data: { ...policySet, pushedAt: now.toISOString() },
        updatedAt: now,
      })
      .onConflict(['tenantExternalId', 'kind', 'externalId'])
      .merge(['data', 'updatedAt'])
      .execute('run');
  }

  /** Sets a control's state by hand (tests and the demo): compliance, support, or a refusal reason. */
  async setControl(
    tenantExternalId: string,
    controlId: string,
    changes: Partial<StoredControl>,
  ): Promise<void> {
    await this.em().transactional(async (em) => {
      await this.controls(em, tenantExternalId);
      const row = await em.findOneOrFail(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'security_control',
        externalId: controlId,
      });
      row.data = { ...row.data, ...changes };
      row.updatedAt = this.clock.now();
    });
  }

  /** The tenant's controls, generated and stored on first use (concurrent first uses insert once). */
  private async controls(em: EntityManager, tenantExternalId: string): Promise<StoredControl[]> {
    const read = () =>
      em.find(
        SimulatedCloudObject,
        { tenantExternalId, kind: 'security_control' },
        { orderBy: { externalId: 'asc' } },
      );
    let rows = await read();
    if (rows.length === 0) {
      const now = this.clock.now();
      await em
        .createQueryBuilder(SimulatedCloudObject)
        .insert(
          generatedControls(tenantExternalId).map((control) => ({
            id: randomUUID(),
            tenantExternalId,
            kind: 'security_control' as const,
            externalId: control.controlId,
            data: { ...control },
            updatedAt: now,
          })),
        )
        .onConflict(['tenantExternalId', 'kind', 'externalId'])
        .ignore()
        .execute('run');
      rows = await read();
    }
    return rows.map((row) => row.data as unknown as StoredControl);
  }
}
