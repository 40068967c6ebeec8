import { CloudError, type CloudErrorKind } from '../cloud-error.js';
import type { TenantCloud } from '../tenant-cloud.js';

/** A call of a tenant's client, by area and method: 'directory.createUser', 'licenses.listSkus'. */
export type SimulatedCall = {
  [
    Area in Exclude<keyof TenantCloud, 'tenantExternalId'>
  ]: `${Area}.${Extract<keyof TenantCloud[Area], string>}`;
}[Exclude<keyof TenantCloud, 'tenantExternalId'>];

export interface SimulatedFault {
  kind: CloudErrorKind;
  message?: string;
  /** Throttled/Transient: the Retry-After the cloud sends. */
  retryAfterSeconds?: number;
  /** How many calls fail before the cloud answers again (default 1). */
  times?: number;
}

/**
 * Failures a test (or a demo) asks of the simulated cloud: the next `times` calls of one method of one
 * tenant's client fail with a CloudError of the given kind, before anything is read or written, as a
 * throttled or failing cloud answers. Held in the process's memory (no statement per call); jobs run by the
 * same process see them.
 */
export class SimulatedFaults {
  private readonly pending = new Map<string, SimulatedFault & { times: number }>();

  inject(tenantExternalId: string, call: SimulatedCall, fault: SimulatedFault): void {
    this.pending.set(`${tenantExternalId}/${call}`, { ...fault, times: fault.times ?? 1 });
  }

  clear(): void {
    this.pending.clear();
  }

  /** Throws the fault due for this call, if one is. */
  check(tenantExternalId: string, call: SimulatedCall): void {
    const key = `${tenantExternalId}/${call}`;
    const fault = this.pending.get(key);
    if (!fault) return;
    if (fault.times <= 1) this.pending.delete(key);
    else fault.times--;
    throw new CloudError(fault.kind, fault.message ?? `The simulated cloud failed ${call} (${fault.kind})`, {
      provider: 'simulated',
      retryAfterSeconds: fault.retryAfterSeconds,
      tenantExternalId,
    });
  }
}
