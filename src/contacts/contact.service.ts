import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { undoInCloudOnFailure } from '../core/cloud-compensation.js';
import {
  ConflictError,
  type FieldProblem,
  invalid,
  InvalidRequestError,
  NotFoundError,
} from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPageRows } from '../core/lean-read.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { addressHolders, assertAddressesFree, emailTaken } from './contact-addresses.js';
import { cloudInputOf } from './contact-cloud.js';
import { csvNameOf, readContactsCsv } from './contact-csv.js';
import { Contact } from './contact.entity.js';
import { ContactImportRowStatus, ContactSource } from './contact.enums.js';
import type { ContactImportReport, ContactImportRow, ContactInput } from './contact.types.js';
import { checkContact, type ContactValues } from './contact.validation.js';

export const MAX_SEARCH_LENGTH = 256;

const valuesOf = (contact: Contact): ContactValues => ({
  firstName: contact.firstName,
  lastName: contact.lastName,
  displayName: contact.displayName,
  email: contact.email,
  company: contact.company,
  jobTitle: contact.jobTitle,
  businessPhone: contact.businessPhone,
  mobilePhone: contact.mobilePhone,
  department: contact.department,
  showInAddressList: contact.showInAddressList,
  manager: contact.manager,
  street: contact.street,
  city: contact.city,
  state: contact.state,
  postalCode: contact.postalCode,
  country: contact.country,
  notes: contact.notes,
  emailAliases: contact.emailAliases,
});

const isEmailClash = (error: unknown) =>
  error instanceof UniqueConstraintViolationException && /contacts_email_unique/.test(error.message);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Mail contacts of a tenant (SPEC 2.6 "Contact", 4.2 /api/identity/contacts). Like every write of the
 * directory, a change is made in the upstream cloud first, then in our rows in one transaction; a failed
 * row write undoes the cloud change. The event catalog has no contact kinds, so contacts emit no events.
 */
export class ContactService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * A tenant's contacts in address-book order (display name, case-insensitive, then id); `search` matches
   * part of the display, first or last name or the address, case-insensitively. One statement per page.
   */
  async list(tenantId: string, page: PageArgs, search?: string | null): Promise<Page<Contact>> {
    const term = search?.trim() ?? '';
    if (term.length > MAX_SEARCH_LENGTH) {
      throw InvalidRequestError.field('search', `must be at most ${MAX_SEARCH_LENGTH} characters long`);
    }
    const params: unknown[] = [this.ctx.scope.organizationId, this.ctx.scope.environment, tenantId];
    let where = 'organization_id = ? and environment = ? and tenant_id = ?';
    if (term !== '') {
      const pattern = `%${escapeLike(term)}%`;
      where += ` and (display_name ilike ? or first_name ilike ? or last_name ilike ? or email ilike ?)`;
      params.push(pattern, pattern, pattern, pattern);
    }
    // Paged through contacts_display_name_index with a separate capped count (issue #11): a window count beside
    // the page read and sorted the whole tenant for every page. A search is a filter on that index's order, not
    // served by an index of its own (docs/performance.md).
    const { rows, pageInfo } = await findPageRows(
      this.ctx,
      'contacts',
      { sql: where, params },
      'lower(display_name) asc, id asc',
      page,
    );
    if (rows.length === 0) await this.tenant(tenantId);
    return { items: rows.map((row) => this.ctx.em.map(Contact, row)), pageInfo };
  }

  async get(tenantId: string, id: string): Promise<Contact> {
    await this.tenant(tenantId);
    const contact = await this.ctx.em.findOne(Contact, { id, tenantId });
    if (!contact) throw new NotFoundError('Contact', id);
    return contact;
  }

  /** Creates a contact (upstream first); 409 when its address or an alias is already another contact's. */
  async create(tenantId: string, input: ContactInput): Promise<Contact> {
    const tenant = await this.tenant(tenantId);
    const values = this.check(input);
    await assertAddressesFree(this.ctx, tenantId, values, null);
    const { contacts: upstream } = await this.ctx.cloud.forTenant(tenant.externalId);
    const [cloud] = await upstream.createContacts([cloudInputOf(values)]);
    const undo = () => upstream.deleteContact(cloud.externalId);
    return this.recordAfterCloud(undo, values.email, () =>
      this.ctx.em.transactional(async (em) => {
        const now = this.ctx.clock.now();
        const contact = em.create(Contact, {
          ...this.ctx.scope,
          ...values,
          tenantId,
          externalId: cloud.externalId,
          source: ContactSource.CLOUD,
          createdAt: now,
          updatedAt: now,
        });
        await em.flush();
        return contact;
      }),
    );
  }

  /**
   * PUT: replaces every editable field (an optional field left out is cleared; showInAddressList goes back
   * to true). 409 when the new address is another contact's; 409 for a Synced contact (read-only here).
   */
  async update(tenantId: string, id: string, input: ContactInput): Promise<Contact> {
    const tenant = await this.tenant(tenantId);
    const values = this.check(input);
    const before = await this.get(tenantId, id);
    if (before.source === ContactSource.SYNCED) {
      throw new ConflictError(`Contact ${id} is synced from an on-premises directory: change it there`, {
        source: before.source,
      });
    }
    await assertAddressesFree(this.ctx, tenantId, values, id);
    const previous = valuesOf(before);
    const { contacts: upstream } = await this.ctx.cloud.forTenant(tenant.externalId);
    await upstream.updateContact(before.externalId, cloudInputOf(values));
    const undo = () => upstream.updateContact(before.externalId, cloudInputOf(previous));
    return this.recordAfterCloud(undo, values.email, () =>
      this.ctx.em.transactional(async (em) => {
        const current = await em.findOne(
          Contact,
          { id, tenantId },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        if (!current) throw new NotFoundError('Contact', id);
        em.assign(current, { ...values, updatedAt: this.ctx.clock.now() });
        await em.flush();
        return current;
      }),
    );
  }

  /** Deletes a contact for good, upstream first (contacts have no recycle bin). Returns it as it was. */
  async delete(tenantId: string, id: string): Promise<Contact> {
    const tenant = await this.tenant(tenantId);
    const contact = await this.get(tenantId, id);
    if (contact.source === ContactSource.SYNCED) {
      throw new ConflictError(`Contact ${id} is synced from an on-premises directory: delete it there`, {
        source: contact.source,
      });
    }
    await (await this.ctx.cloud.forTenant(tenant.externalId)).contacts.deleteContact(contact.externalId);
    await this.ctx.em.nativeDelete(Contact, { id, tenantId });
    return contact;
  }

  /**
   * Bulk import (SPEC 2.6 "Contact CSV columns"): every row is checked first, and one invalid row refuses
   * the file (400 with each invalid row's line and problems; nothing written). A row whose address is
   * already a contact of the tenant, or an earlier row's, is skipped as a duplicate. The rest are created
   * upstream in one call, then stored in one transaction (undone upstream if that fails).
   */
  async import(tenantId: string, csv: string): Promise<ContactImportReport> {
    const tenant = await this.tenant(tenantId);
    const parsed = readContactsCsv(csv);
    const checked = parsed.map(({ line, fields, problems }) => {
      const contact = checkContact(fields, csvNameOf);
      return { line, values: contact.values, problems: [...problems, ...contact.problems] };
    });
    const invalidRows = checked.filter((row) => row.problems.length > 0);
    if (invalidRows.length > 0) {
      const rows: ContactImportRow[] = invalidRows.map((row) => ({
        line: row.line,
        email: row.values.email || null,
        status: ContactImportRowStatus.INVALID,
        contactId: null,
        errors: row.problems,
      }));
      const fields: FieldProblem[] = invalidRows.flatMap((row) =>
        row.problems.map((p) => ({ field: p.field, problem: `line ${row.line}: ${p.problem}` })),
      );
      throw new InvalidRequestError(
        `${invalidRows.length} of ${checked.length} rows are invalid (lines ${invalidRows
          .map((row) => row.line)
          .join(', ')}); nothing was imported`,
        fields,
        { rows },
      );
    }

    // An address already held by a contact, as its email or an alias, is a duplicate.
    const existing = await addressHolders(
      this.ctx,
      tenantId,
      checked.map((row) => row.values.email),
      null,
    );
    const seen = new Set<string>();
    const report: ContactImportRow[] = checked.map((row) => {
      const email = row.values.email;
      const duplicate = existing.has(email) || seen.has(email);
      seen.add(email);
      return {
        line: row.line,
        email,
        status: duplicate ? ContactImportRowStatus.DUPLICATE : ContactImportRowStatus.CREATED,
        contactId: existing.get(email) ?? null,
        errors: [],
      };
    });
    const toCreate = checked.filter((_, index) => report[index].status === ContactImportRowStatus.CREATED);
    const reportOf = report.filter((row) => row.status === ContactImportRowStatus.CREATED);

    if (toCreate.length > 0) {
      const { contacts: upstream } = await this.ctx.cloud.forTenant(tenant.externalId);
      const cloud = await upstream.createContacts(toCreate.map((row) => cloudInputOf(row.values)));
      const undo = async () => {
        for (const record of cloud) await upstream.deleteContact(record.externalId);
      };
      await this.recordAfterCloud(undo, null, () =>
        this.ctx.em.transactional(async (em) => {
          const now = this.ctx.clock.now();
          const contacts = toCreate.map((row, index) =>
            em.create(Contact, {
              ...this.ctx.scope,
              ...row.values,
              tenantId,
              externalId: cloud[index].externalId,
              source: ContactSource.CLOUD,
              createdAt: now,
              updatedAt: now,
            }),
          );
          await em.flush();
          contacts.forEach((contact, index) => {
            reportOf[index].contactId = contact.id;
          });
        }),
      );
    }
    const created = reportOf.length;
    return { created, skipped: report.length - created, failed: 0, rows: report };
  }

  private check(input: ContactInput): ContactValues {
    const { values, problems } = checkContact(input);
    if (problems.length > 0) throw invalid(problems);
    return values;
  }

  /** Writes our rows (undoInCloudOnFailure); a unique clash on the address becomes 409. */
  private async recordAfterCloud<T>(
    undo: () => Promise<void>,
    email: string | null,
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await undoInCloudOnFailure(undo, write);
    } catch (error) {
      if (!isEmailClash(error)) throw error;
      throw email
        ? emailTaken(email, null)
        : new ConflictError('A contact with one of these addresses was created meanwhile; import again', {});
    }
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
