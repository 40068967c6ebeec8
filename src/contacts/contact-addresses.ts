import { ConflictError } from '../core/errors.js';
import type { LeanContext } from '../core/lean-read.js';
import type { ContactValues } from './contact.validation.js';

/**
 * A mail address names one recipient: among a tenant's contacts, every address (primary or alias) belongs to
 * one contact. The primary address is also unique in the database (contacts_email_unique); aliases are checked
 * here, before the cloud call.
 */

export function emailTaken(email: string, existingId: string | null): ConflictError {
  return new ConflictError(`${email} is already a contact of this tenant`, {
    fields: [{ field: 'email', problem: 'is already a contact of this tenant' }],
    email,
    ...(existingId ? { existingContactId: existingId } : {}),
  });
}

/**
 * 409 when the address or one of the aliases is already an address (primary or alias) of another contact of
 * the tenant (other than `exceptId`): a mail address names one recipient, so the directory cannot route it
 * to two contacts. Names each field that clashes.
 */
export async function assertAddressesFree(
  ctx: LeanContext,
  tenantId: string,
  values: Pick<ContactValues, 'email' | 'emailAliases'>,
  exceptId: string | null,
): Promise<void> {
  const held = await addressHolders(ctx, tenantId, [values.email, ...values.emailAliases], exceptId);
  if (held.size === 0) return;
  const emailHolder = held.get(values.email);
  if (emailHolder) throw emailTaken(values.email, emailHolder);
  const fields = values.emailAliases.flatMap((alias, index) =>
    held.has(alias)
      ? [{ field: `emailAliases[${index}]`, problem: `${alias} is already an address of another contact` }]
      : [],
  );
  throw new ConflictError(
    `${fields.length} alias(es) are already addresses of other contacts of this tenant`,
    {
      fields,
      existingContactIds: [...new Set(held.values())],
    },
  );
}

/** Which of `addresses` (lower-case) another contact of the tenant holds, as its email or an alias: address → id. */
export async function addressHolders(
  ctx: LeanContext,
  tenantId: string,
  addresses: string[],
  exceptId: string | null,
): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const rows = await ctx.em.execute<Array<{ id: string; address: string }>>(
    `select c.id, a.address from contacts c
       cross join lateral unnest(array[lower(c.email)] || c.email_aliases) as a(address)
      where c.organization_id = ? and c.environment = ? and c.tenant_id = ?
        and (lower(c.email) in (?) or c.email_aliases && array[?]::text[])
        and a.address in (?)
        and c.id <> coalesce(?::uuid, '00000000-0000-0000-0000-000000000000')`,
    [ctx.scope.organizationId, ctx.scope.environment, tenantId, addresses, addresses, addresses, exceptId],
  );
  return new Map(rows.map((row) => [row.address, row.id]));
}
