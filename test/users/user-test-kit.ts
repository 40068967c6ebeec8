import type { TestServer } from '../helpers/shared-suite.js';
import type { ActorBody } from '../actors/actor-kit.js';

/** What the user tests share: the envelope, the wire shape of a user, and direct reads of the database. */
export interface Envelope<T> {
  success: boolean;
  data: T;
  meta?: { page: number; limit: number; total: number };
  error?: { code: string; message: string; details: Record<string, unknown> };
}

/** DECISIONS "Wire names of the core records" (User), plus isServiceAccount. */
export const USER_WIRE_FIELDS = [
  'id',
  'tenantId',
  'displayName',
  'firstName',
  'lastName',
  'userPrincipalName',
  'jobTitle',
  'department',
  'companyName',
  'officeLocation',
  'businessPhone',
  'mobilePhone',
  'employeeId',
  'employeeType',
  'managerId',
  'usageLocation',
  'accountStatus',
  'mfaStatus',
  'userType',
  'source',
  'isServiceAccount',
  'licenses',
  'lastSignInAt',
  'createdAt',
] as const;

export type UserBody = Record<(typeof USER_WIRE_FIELDS)[number], unknown> & {
  id: string;
  userPrincipalName: string;
  licenses: string[];
  generatedPassword?: string | null;
  deletedAt?: string | null;
  deletedBy?: ActorBody | null;
};

export interface UserRow {
  id: string;
  user_principal_name: string;
  display_name: string;
  first_name: string;
  job_title: string | null;
  account_status: string;
  mfa_status: string;
  manager_id: string | null;
  usage_location: string | null;
  external_id: string;
  deleted_at: Date | null;
  deleted_by: string | null;
  sessions_revoked_at: Date | null;
}

export async function countUsers(app: TestServer, tenantId: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: string }>(
    'select count(*) as n from users where tenant_id = $1',
    [tenantId],
  );
  return Number(rows[0].n);
}

export async function userRow(app: TestServer, id: string): Promise<UserRow> {
  const { rows } = await app.pool.query<UserRow>('select * from users where id = $1', [id]);
  if (rows.length !== 1) throw new Error(`No users row ${id}`);
  return rows[0];
}

export interface EventRow {
  kind: string;
  severity: string;
  payload: {
    event: string;
    severity: string;
    tenant: { id: string; name: string; domain: string };
    details: Record<string, unknown>;
    actionUrl: string;
  };
}

/** Outbox rows about one user, oldest first. */
export async function eventsAbout(app: TestServer, userId: string): Promise<EventRow[]> {
  const { rows } = await app.pool.query<EventRow>(
    `select kind, severity, payload from domain_events
      where payload->'details'->>'userId' = $1 order by occurred_at, kind`,
    [userId],
  );
  return rows;
}

/** The objects of a tenant in the simulated cloud, of one kind. */
export async function cloudObjects(
  app: TestServer,
  tenantExternalId: string,
  kind: string,
): Promise<Array<Record<string, unknown>>> {
  const { rows } = await app.pool.query<{ data: Record<string, unknown> }>(
    'select data from sim_cloud_objects where tenant_external_id = $1 and kind = $2',
    [tenantExternalId, kind],
  );
  return rows.map((row) => row.data);
}
