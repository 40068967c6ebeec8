import type { TestServer } from '../helpers/shared-suite.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';

/** What the license tests share: the envelope shape and direct reads of the database (outside any scope). */
export interface Envelope<T> {
  success: boolean;
  data: T;
  meta?: { page: number; limit: number; total: number };
  error?: { code: string; message: string; details: Record<string, unknown> };
}

export type LicenseBody = ItemOf<'listLicenses'>;

export type AssignmentBody = DataOf<'assignLicense'>;

export type RemovalBody = DataOf<'removeLicense'>;

export interface SeatState {
  consumed: number;
  total: number;
  /** Assignment rows of the SKU in our database. */
  assignments: number;
  /** Assignment objects of the SKU in the simulated cloud. */
  cloudAssignments: number;
  /** `license.assigned` / `license.removed` events about the SKU. */
  assignedEvents: number;
  removedEvents: number;
}

/** The seat counter, the assignment rows, the cloud's assignments and the events of one SKU of a tenant. */
export async function seatState(app: TestServer, tenantId: string, skuId: string): Promise<SeatState> {
  const { rows } = await app.pool.query<{
    consumed: number;
    total: number;
    assignments: string;
    cloud_assignments: string;
    assigned_events: string;
    removed_events: string;
  }>(
    `select l.consumed, l.total,
       (select count(*) from license_assignments a where a.tenant_id = l.tenant_id and a.sku_id = l.sku_id) as assignments,
       (select count(*) from sim_cloud_objects o join tenants t on t.external_id = o.tenant_external_id
         where t.id = l.tenant_id and o.kind = 'assignment' and o.data->>'skuId' = l.sku_id::text) as cloud_assignments,
       (select count(*) from domain_events e where e.tenant_id = l.tenant_id and e.kind = 'license.assigned'
         and e.payload->'details'->>'skuId' = l.sku_id::text) as assigned_events,
       (select count(*) from domain_events e where e.tenant_id = l.tenant_id and e.kind = 'license.removed'
         and e.payload->'details'->>'skuId' = l.sku_id::text) as removed_events
     from tenant_licenses l where l.tenant_id = $1 and l.sku_id = $2`,
    [tenantId, skuId],
  );
  const [row] = rows;
  return {
    consumed: row.consumed,
    total: row.total,
    assignments: Number(row.assignments),
    cloudAssignments: Number(row.cloud_assignments),
    assignedEvents: Number(row.assigned_events),
    removedEvents: Number(row.removed_events),
  };
}
