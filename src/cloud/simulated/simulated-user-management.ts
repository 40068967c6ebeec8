import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import { CloudError } from '../cloud-error.js';
import type { CloudUserRecord } from '../provider.js';
import type {
  CloudDriveAccessGrant,
  CloudDriveItemRecord,
  CloudMailboxRecord,
  CloudPasswordReset,
} from '../user-management.provider.js';
import { generateDriveItems } from './simulated-drive-items.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import type { SimulatedObjectStore } from './simulated-object-store.js';

/** Operations of this file a test (or a demo) can make fail once (`failNext`). */
export type FaultableOperation =
  | 'resetPassword'
  | 'convertMailboxToShared'
  | 'addMailboxDelegate'
  | 'setAutoReply'
  | 'removeGroupMember'
  | 'transferFiles'
  | 'grantDriveAccess';

/**
 * The cloud's refusal of one operation (`failNext`): a Refused CloudError, so the step that asked fails with
 * this message instead of being retried (a throttled or failing cloud: simulated-faults.ts).
 */
function refusal(operation: string, message: string, kind: 'Refused' | 'NotFound' = 'Refused'): CloudError {
  return new CloudError(kind, `The upstream cloud refused ${operation}: ${message}`, {
    provider: 'simulated',
  });
}

/**
 * Mailboxes, auto-replies, delegations, file storage and passwords of the simulated cloud, stored as
 * objects of the same table as the directory (kinds mailbox, drive, drive_item, drive_grant, fault).
 * A user's mailbox and files come into existence on first use, generated from the user's id, so tenants
 * seeded before this existed and users created by tests have them too.
 */
export class SimulatedUserManagementCloud {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
    /** The simulated cloud's object store (its writes), shared with the provider. */
    private readonly store: SimulatedObjectStore,
  ) {}

  /** Makes the next call of `operation` in the tenant fail (consumed by that call). */
  async failNext(tenantExternalId: string, operation: FaultableOperation, message = 'service unavailable') {
    await this.store.put(this.orm.em.fork(), tenantExternalId, 'fault', operation, { operation, message });
  }

  async resetPassword(tenantExternalId: string, userExternalId: string, reset: CloudPasswordReset) {
    await this.consumeFault(tenantExternalId, 'resetPassword');
    await this.orm.em.fork().transactional(async (em) => {
      const user = await this.user(em, tenantExternalId, userExternalId);
      // The password itself is not kept (a real cloud stores a hash); when and how it was set is.
      user.data = {
        ...user.data,
        passwordLastSetAt: this.clock.now().toISOString(),
        forceChangePasswordNextSignIn: reset.forceChangeAtNextSignIn,
      };
      user.updatedAt = this.clock.now();
    });
  }

  async getMailbox(tenantExternalId: string, userExternalId: string): Promise<CloudMailboxRecord> {
    return this.mailbox(this.orm.em.fork(), tenantExternalId, userExternalId);
  }

  async convertMailboxToShared(tenantExternalId: string, userExternalId: string) {
    return this.changeMailbox(tenantExternalId, userExternalId, 'convertMailboxToShared', (mailbox) => ({
      ...mailbox,
      type: 'Shared',
    }));
  }

  async addMailboxDelegate(tenantExternalId: string, userExternalId: string, delegateExternalId: string) {
    await this.changeMailbox(tenantExternalId, userExternalId, 'addMailboxDelegate', (mailbox) => ({
      ...mailbox,
      delegateExternalIds: [...new Set([...mailbox.delegateExternalIds, delegateExternalId])],
    }));
  }

  async setAutoReply(tenantExternalId: string, userExternalId: string, message: string | null) {
    await this.changeMailbox(tenantExternalId, userExternalId, 'setAutoReply', (mailbox) => ({
      ...mailbox,
      autoReply: message,
    }));
  }

  async removeGroupMember(tenantExternalId: string, groupExternalId: string, userExternalId: string) {
    await this.consumeFault(tenantExternalId, 'removeGroupMember');
    await this.orm.em.fork().transactional(async (em) => {
      const group = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'group',
        externalId: groupExternalId,
      });
      if (!group) return;
      const members = (group.data.memberExternalIds as string[]) ?? [];
      group.data = { ...group.data, memberExternalIds: members.filter((id) => id !== userExternalId) };
      group.updatedAt = this.clock.now();
    });
  }

  async transferFiles(tenantExternalId: string, fromExternalId: string, toExternalId: string) {
    await this.consumeFault(tenantExternalId, 'transferFiles');
    return this.orm.em.fork().transactional(async (em) => {
      const from = await this.user(em, tenantExternalId, fromExternalId);
      await this.user(em, tenantExternalId, toExternalId);
      await this.ensureDrive(em, tenantExternalId, fromExternalId);
      await this.ensureDrive(em, tenantExternalId, toExternalId);
      const folder = `/Transferred from ${String(from.data.displayName)}`;
      const moved = await em.execute<{ affectedRows?: number }>(
        `update sim_cloud_objects
            set data = data || jsonb_build_object('ownerExternalId', ?::text, 'path', ?::text || (data->>'path')),
                updated_at = ?
          where tenant_external_id = ? and kind = 'drive_item' and data->>'ownerExternalId' = ?`,
        [toExternalId, folder, this.clock.now(), tenantExternalId, fromExternalId],
        'run',
      );
      return moved.affectedRows ?? 0;
    });
  }

  async listDriveItems(
    tenantExternalId: string,
    userExternalId: string,
    page: { offset: number; limit: number },
  ): Promise<{ items: CloudDriveItemRecord[]; total: number }> {
    const em = this.orm.em.fork();
    await this.ensureDrive(em, tenantExternalId, userExternalId);
    const rows = await em.getConnection().execute<Array<{ data: CloudDriveItemRecord; total: string }>>(
      `select data, count(*) over () as total from sim_cloud_objects
        where tenant_external_id = ? and kind = 'drive_item' and data->>'ownerExternalId' = ?
        order by data->>'path', data->>'name', external_id limit ? offset ?`,
      [tenantExternalId, userExternalId, page.limit, page.offset],
    );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && page.offset > 0) {
      const [count] = await em.getConnection().execute<Array<{ total: string }>>(
        `select count(*) as total from sim_cloud_objects
          where tenant_external_id = ? and kind = 'drive_item' and data->>'ownerExternalId' = ?`,
        [tenantExternalId, userExternalId],
      );
      total = Number(count.total);
    }
    return { items: rows.map((row) => row.data), total };
  }

  async grantDriveAccess(
    tenantExternalId: string,
    ownerExternalId: string,
    granteeExternalId: string,
  ): Promise<CloudDriveAccessGrant> {
    await this.consumeFault(tenantExternalId, 'grantDriveAccess');
    return this.orm.em.fork().transactional(async (em) => {
      await this.user(em, tenantExternalId, ownerExternalId);
      await this.user(em, tenantExternalId, granteeExternalId);
      const key = `${ownerExternalId}:${granteeExternalId}`;
      const existing = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'drive_grant',
        externalId: key,
      });
      if (existing) return existing.data as unknown as CloudDriveAccessGrant;
      const grant: CloudDriveAccessGrant = {
        ownerExternalId,
        granteeExternalId,
        grantedAt: this.clock.now().toISOString(),
      };
      await this.store.put(em, tenantExternalId, 'drive_grant', key, { ...grant });
      return grant;
    });
  }

  /** Every grant on a user's storage (a test and demo hook). */
  async driveGrants(tenantExternalId: string, ownerExternalId: string): Promise<CloudDriveAccessGrant[]> {
    const rows = await this.orm.em.fork().find(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'drive_grant',
      externalId: { $like: `${ownerExternalId}:%` },
    });
    return rows.map((row) => row.data as unknown as CloudDriveAccessGrant);
  }

  /** Removes a purged user's mailbox and files (called by the provider's purge). */
  async forgetUser(em: EntityManager, tenantExternalId: string, userExternalId: string): Promise<void> {
    await em.execute(
      `delete from sim_cloud_objects where tenant_external_id = ?
          and ((kind in ('mailbox', 'drive') and external_id = ?)
            or (kind = 'drive_item' and data->>'ownerExternalId' = ?)
            or (kind = 'drive_grant' and external_id like ?))`,
      [tenantExternalId, userExternalId, userExternalId, `${userExternalId}:%`],
      'run',
    );
  }

  private async changeMailbox(
    tenantExternalId: string,
    userExternalId: string,
    operation: FaultableOperation,
    change: (mailbox: CloudMailboxRecord) => CloudMailboxRecord,
  ): Promise<CloudMailboxRecord> {
    await this.consumeFault(tenantExternalId, operation);
    return this.orm.em.fork().transactional(async (em) => {
      const changed = change(await this.mailbox(em, tenantExternalId, userExternalId));
      await this.store.put(em, tenantExternalId, 'mailbox', userExternalId, { ...changed });
      return changed;
    });
  }

  private async mailbox(em: EntityManager, tenantExternalId: string, userExternalId: string) {
    const row = await em.findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'mailbox',
      externalId: userExternalId,
    });
    if (row) return row.data as unknown as CloudMailboxRecord;
    await this.user(em, tenantExternalId, userExternalId);
    const fresh: CloudMailboxRecord = {
      userExternalId,
      type: 'User',
      delegateExternalIds: [],
      autoReply: null,
    };
    return fresh;
  }

  /** Writes the user's generated files once (the `drive` marker says it was done). */
  private async ensureDrive(em: EntityManager, tenantExternalId: string, userExternalId: string) {
    const now = this.clock.now();
    const marked = await em.execute<{ affectedRows?: number }>(
      `insert into sim_cloud_objects (id, tenant_external_id, kind, external_id, data, updated_at)
       select ?, ?, 'drive', ?, '{}'::jsonb, ?
        where exists (select 1 from sim_cloud_objects
                       where tenant_external_id = ? and kind = 'user' and external_id = ?)
       on conflict (tenant_external_id, kind, external_id) do nothing`,
      [randomUUID(), tenantExternalId, userExternalId, now, tenantExternalId, userExternalId],
      'run',
    );
    if (!marked.affectedRows) return;
    const items = generateDriveItems(userExternalId, now);
    await em.insertMany(
      SimulatedCloudObject,
      items.map((item) => ({
        id: randomUUID(),
        tenantExternalId,
        kind: 'drive_item' as const,
        externalId: item.externalId,
        data: { ...item },
        updatedAt: now,
      })),
    );
  }

  private async user(em: EntityManager, tenantExternalId: string, userExternalId: string) {
    const row = await em.findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'user',
      externalId: userExternalId,
    });
    if (!row) throw refusal('the call', `no user ${userExternalId}`, 'NotFound');
    return row as SimulatedCloudObject & { data: Partial<CloudUserRecord> & Record<string, unknown> };
  }

  /** Outside the operation's transaction, so the fault stays consumed when the operation fails. */
  private async consumeFault(tenantExternalId: string, operation: FaultableOperation) {
    const rows = await this.orm.em.getConnection().execute<Array<{ data: { message: string } }>>(
      `delete from sim_cloud_objects where tenant_external_id = ? and kind = 'fault' and external_id = ?
        returning data`,
      [tenantExternalId, operation],
    );
    if (rows.length > 0) throw refusal(operation, rows[0].data.message);
  }
}
