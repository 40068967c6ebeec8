/**
 * The users page both raw floors serve (bench/raw-server.ts on Express, bench/raw-http-server.ts on bare
 * node:http): the same SQL shape the product needs (page, total, license SKU ids of the page's users) and the
 * same JSON, with no authentication, rate limiting, ORM or GraphQL. Never imported by src/.
 *
 * Env: DATABASE_URL, BENCH_ORGANIZATION_ID, BENCH_ENVIRONMENT, BENCH_USER_FIELDS (comma-separated).
 */
import pg from 'pg';
import { columnOf, LICENSES_FIELD } from './user-fields.js';

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const organizationId = requiredEnv('BENCH_ORGANIZATION_ID');
const environment = requiredEnv('BENCH_ENVIRONMENT');
const fields = requiredEnv('BENCH_USER_FIELDS').split(',');
const columnFields = fields.filter((field) => field !== LICENSES_FIELD);
export const pool = new pg.Pool({ connectionString: requiredEnv('DATABASE_URL'), max: 10 });
pool.on('error', (error) => console.error(`raw server pool: ${error.message}`));

// The same filter and order as the product's list: the scope, the tenant, not deleted, newest first.
const WHERE = 'organization_id = $1 and environment = $2 and tenant_id = $3 and deleted_at is null';
const PAGE_SQL = `select ${columnFields.map((field) => `"${columnOf(field)}" as "${field}"`).join(', ')}
  from users where ${WHERE} order by created_at desc, id desc limit $4 offset $5`;
const COUNT_SQL = `select count(*)::int as total from users where ${WHERE}`;
const LICENSES_SQL = `select user_id, sku_id from license_assignments
  where organization_id = $1 and environment = $2 and user_id = any($3::uuid[])`;

export function intParam(value: unknown, fallback: number): number {
  const parsed = typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** The success envelope of one page of the tenant's users. */
export async function usersPage(tenantId: string, page: number, requestedLimit: number): Promise<unknown> {
  const limit = Math.min(requestedLimit, 100);
  const scope = [organizationId, environment, tenantId];
  const [rows, count] = await Promise.all([
    pool.query<Record<string, unknown>>(PAGE_SQL, [...scope, limit, (page - 1) * limit]),
    pool.query<{ total: number }>(COUNT_SQL, scope),
  ]);
  const licenses = new Map<string, string[]>();
  if (fields.includes(LICENSES_FIELD) && rows.rows.length > 0) {
    const assignments = await pool.query<{ user_id: string; sku_id: string }>(LICENSES_SQL, [
      organizationId,
      environment,
      rows.rows.map((row) => row.id),
    ]);
    for (const { user_id: userId, sku_id: skuId } of assignments.rows) {
      const held = licenses.get(userId);
      if (held) held.push(skuId);
      else licenses.set(userId, [skuId]);
    }
  }
  const data = rows.rows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const field of fields)
      item[field] = field === LICENSES_FIELD ? (licenses.get(String(row.id)) ?? []) : row[field];
    return item;
  });
  return { success: true, data, meta: { page, limit, total: count.rows[0].total } };
}
