import {
  SUMMARY_MAX_OVER_ALLOCATED_TENANTS,
  SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT,
} from '../http/list-bounds.js';
import type { OverAllocatedTenant } from './portal.types.js';

/** pg hands bigint and numeric aggregates over as strings. */
type Numeric = number | string | null;
const toInt = (value: Numeric): number => (value === null ? 0 : Number(value));

/** A WHERE fragment with its bound values. */
export interface Filter {
  sql: string;
  params: unknown[];
}

export interface OverAllocationRow {
  tenant_id: string;
  /** Over-allocated SKUs of the tenant, and over-allocated tenants, in all (the rows are the first ones). */
  sku_count: Numeric;
  tenant_count: Numeric;
  tenant_name: string;
  sku_id: string;
  sku_part_number: string;
  name: string;
  total: Numeric;
  consumed: Numeric;
}

/**
 * One statement: the tenant SKUs with more seats assigned than purchased (kept in step by sync), cut to the
 * bounds the cost analysis counts on (list-bounds.ts): the tenants with the most excess seats, and each
 * one's SKUs with the most, each row carrying how many there are in all.
 */
export function overAllocationRows(
  execute: <T>(sql: string, params: unknown[]) => Promise<T[]>,
  licenses: Filter,
): Promise<OverAllocationRow[]> {
  return execute<OverAllocationRow>(
    `with over as (
       select tl.tenant_id, t.name as tenant_name, tl.sku_id, tl.sku_part_number, tl.name, tl.total, tl.consumed,
              sum(tl.consumed - tl.total) over (partition by tl.tenant_id) as tenant_excess,
              count(*) over (partition by tl.tenant_id) as sku_count,
              row_number() over (partition by tl.tenant_id
                                 order by tl.consumed - tl.total desc, tl.sku_part_number, tl.sku_id) as sku_rank
         from tenant_licenses tl
         join tenants t on t.id = tl.tenant_id
        where ${licenses.sql} and tl.consumed > tl.total
     ), ranked as (
       select over.*, dense_rank() over (order by tenant_excess desc, tenant_id) as tenant_rank,
              (select count(distinct tenant_id) from over) as tenant_count
         from over
     )
     select tenant_id, tenant_name, sku_id, sku_part_number, name, total, consumed, sku_count, tenant_count
       from ranked
      where tenant_rank <= ? and sku_rank <= ?
      order by tenant_name, tenant_id, sku_part_number, sku_id`,
    [...licenses.params, SUMMARY_MAX_OVER_ALLOCATED_TENANTS, SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT],
  );
}

/** Rows come ordered by tenant, so each tenant's SKUs are consecutive. */
export function groupOverAllocations(rows: OverAllocationRow[]): OverAllocatedTenant[] {
  const tenants: OverAllocatedTenant[] = [];
  for (const row of rows) {
    let tenant = tenants.at(-1);
    if (tenant?.tenantId !== row.tenant_id) {
      tenant = {
        tenantId: row.tenant_id,
        tenantName: row.tenant_name,
        skus: [],
        skuCount: toInt(row.sku_count),
      };
      tenants.push(tenant);
    }
    const totalSeats = toInt(row.total);
    const assignedSeats = toInt(row.consumed);
    tenant.skus.push({
      skuId: row.sku_id,
      skuPartNumber: row.sku_part_number,
      name: row.name,
      totalSeats,
      assignedSeats,
      excessSeats: assignedSeats - totalSeats,
    });
  }
  return tenants;
}
