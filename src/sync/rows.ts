import type { EntityManager } from '@mikro-orm/postgresql';

/** Helpers the features' sync steps share to write their rows. */

/** Rows written per flush, so memory and statement size stay bounded for large tenants. */
export const SYNC_BATCH_SIZE = 500;

/** Assigns only the values that differ; tells whether anything did. */
export function applyChanges<T extends object>(target: T, values: Partial<T>): boolean {
  let changed = false;
  for (const key of Object.keys(values) as Array<keyof T>) {
    const next = values[key] as T[keyof T];
    const current = target[key];
    const same =
      current instanceof Date && next instanceof Date
        ? current.getTime() === next.getTime()
        : Array.isArray(current) && Array.isArray(next)
          ? sameItems(current, next)
          : current === next;
    if (!same) {
      target[key] = next;
      changed = true;
    }
  }
  return changed;
}

/** Arrays of scalars, item by item (a text[] column read back is a new array every time). */
function sameItems(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

export function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Runs an upsert that takes the records as its last parameter (JSON, read with jsonb_to_recordset) and returns
 * `inserted` per row it wrote: ONE statement for the whole snapshot, none for an empty one.
 */
export async function upsertRecords<T extends { inserted: boolean }>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  records: unknown[],
): Promise<{ rows: T[]; created: number; updated: number }> {
  if (records.length === 0) return { rows: [], created: 0, updated: 0 };
  const rows = await em.execute<T[]>(sql, [...params, JSON.stringify(records)]);
  const created = rows.filter((row) => row.inserted).length;
  return { rows, created, updated: rows.length - created };
}
