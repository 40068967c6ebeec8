import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { findLeanIn, findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { requireTenants } from '../recommendations/tenant-selection.js';
import { TenantGroup, TenantGroupMember } from './tenant-group.entity.js';
import {
  MAX_GROUP_DESCRIPTION_LENGTH,
  MAX_GROUP_NAME_LENGTH,
  MAX_TENANTS_PER_CALL,
  type CreateTenantGroupInput,
  type TenantGroupView,
  type UpdateTenantGroupInput,
} from './tenant-group.types.js';
import { checkAll } from '../core/field-checks.js';

/** Groups of the organization's tenants (issue #11 item 4; docs/tenant-groups.md). */
export class TenantGroupService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Newest first; the page and its members in two statements whatever the page size. */
  async list(args: PageArgs): Promise<Page<TenantGroupView>> {
    const page = await findLeanPage(this.ctx, TenantGroup, {}, args, { createdAt: 'desc', id: 'desc' });
    return { items: await this.views(page.items), pageInfo: page.pageInfo };
  }

  async get(id: string): Promise<TenantGroupView> {
    const [view] = await this.views([await this.group(id)]);
    return view;
  }

  async create(input: CreateTenantGroupInput): Promise<TenantGroupView> {
    const [name, description, tenantIds] = checkAll(
      () => checkName(input.name, 'name'),
      () => checkDescription(input.description),
      () => checkTenantIds(input.tenantIds ?? []),
    );
    await requireTenants(this.ctx, tenantIds);
    const group = await this.unique(name, () =>
      this.ctx.em.transactional(async (em) => {
        const created = new TenantGroup(this.ctx.scope, { name, description, at: this.ctx.clock.now() });
        em.persist(created);
        await em.flush();
        await this.insertMembers(em, created.id, tenantIds);
        return created;
      }),
    );
    return this.get(group.id);
  }

  async update(id: string, input: UpdateTenantGroupInput): Promise<TenantGroupView> {
    const [name, description] = checkAll(
      () => {
        if (input.name === null) throw InvalidRequestError.field('name', 'must not be null');
        return input.name === undefined ? undefined : checkName(input.name, 'name');
      },
      () => (input.description === undefined ? undefined : checkDescription(input.description)),
    );
    const group = await this.group(id);
    await this.unique(name ?? group.name, async () => {
      if (name !== undefined) group.name = name;
      if (description !== undefined) group.description = description;
      group.updatedAt = this.ctx.clock.now();
      await this.ctx.em.flush();
    });
    return this.get(id);
  }

  /** Deletes the group and its member rows (cascade); the tenants stay as they are. */
  async delete(id: string): Promise<TenantGroupView> {
    const view = await this.get(id);
    await this.ctx.em.nativeDelete(TenantGroup, { id: view.id });
    return view;
  }

  /** Adds tenants (already members: left as they are). */
  async addMembers(id: string, tenantIds: string[]): Promise<TenantGroupView> {
    const wanted = checkTenantIds(tenantIds, true);
    const group = await this.group(id);
    await requireTenants(this.ctx, wanted);
    await this.insertMembers(this.ctx.em, group.id, wanted);
    return this.touched(group);
  }

  /** Removes tenants from the group (not members: nothing to do); the tenants themselves are untouched. */
  async removeMembers(id: string, tenantIds: string[]): Promise<TenantGroupView> {
    const wanted = checkTenantIds(tenantIds, true);
    const group = await this.group(id);
    await this.ctx.em.nativeDelete(TenantGroupMember, { groupId: group.id, tenantId: { $in: wanted } });
    return this.touched(group);
  }

  private async touched(group: TenantGroup): Promise<TenantGroupView> {
    group.updatedAt = this.ctx.clock.now();
    await this.ctx.em.flush();
    return this.get(group.id);
  }

  /** One statement; a concurrent add of the same member is absorbed by the unique (group, tenant) index. */
  private async insertMembers(em: EntityManager, groupId: string, tenantIds: string[]): Promise<void> {
    if (tenantIds.length === 0) return;
    await em.execute(
      `insert into tenant_group_members (id, organization_id, environment, group_id, tenant_id, added_at)
       select gen_random_uuid(), ?, ?, ?, t.id::uuid, ? from jsonb_array_elements_text(?::jsonb) as t(id)
       on conflict (group_id, tenant_id) do nothing`,
      [
        this.ctx.scope.organizationId,
        this.ctx.scope.environment,
        groupId,
        this.ctx.clock.now(),
        JSON.stringify(tenantIds),
      ],
      'run',
    );
  }

  private async group(id: string): Promise<TenantGroup> {
    const group = await this.ctx.em.findOne(TenantGroup, { id: id.toLowerCase() }, { refresh: true });
    if (!group) throw new NotFoundError('TenantGroup', id);
    return group;
  }

  private async unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        throw new ConflictError(`A tenant group named "${name}" already exists`, { field: 'name' });
      throw error;
    }
  }

  private async views(groups: TenantGroup[]): Promise<TenantGroupView[]> {
    const members = await findLeanIn(
      this.ctx,
      TenantGroupMember,
      'groupId',
      groups.map((group) => group.id),
      { tenantId: 'asc' },
    );
    const byGroup = new Map<string, string[]>();
    for (const member of members) {
      const list = byGroup.get(member.groupId) ?? [];
      list.push(member.tenantId);
      byGroup.set(member.groupId, list);
    }
    return groups.map((group) => {
      const tenantIds = byGroup.get(group.id) ?? [];
      return {
        id: group.id,
        name: group.name,
        description: group.description,
        tenantIds,
        tenantCount: tenantIds.length,
        createdAt: group.createdAt,
        updatedAt: group.updatedAt,
      };
    });
  }
}

function checkName(value: string, field: string): string {
  const name = value.trim();
  if (name === '') throw InvalidRequestError.field(field, 'must not be blank');
  if (name.length > MAX_GROUP_NAME_LENGTH)
    throw InvalidRequestError.field(field, `must be at most ${MAX_GROUP_NAME_LENGTH} characters long`);
  return name;
}

function checkDescription(value: string | null | undefined): string | null {
  const description = value?.trim() ?? '';
  if (description.length > MAX_GROUP_DESCRIPTION_LENGTH)
    throw InvalidRequestError.field(
      'description',
      `must be at most ${MAX_GROUP_DESCRIPTION_LENGTH} characters long`,
    );
  return description === '' ? null : description;
}

function checkTenantIds(tenantIds: string[], required = false): string[] {
  const unique = [...new Set(tenantIds.map((id) => id.toLowerCase()))];
  if (required && unique.length === 0)
    throw InvalidRequestError.field('tenantIds', 'must name at least one tenant');
  if (unique.length > MAX_TENANTS_PER_CALL)
    throw InvalidRequestError.field('tenantIds', `must name at most ${MAX_TENANTS_PER_CALL} tenants`);
  return unique;
}
