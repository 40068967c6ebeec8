import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { ConflictError, InvalidRequestError, type FieldProblem } from '../core/errors.js';
import { Organization, Plan } from './organization.entity.js';

/** Lower-case letters, digits and inner hyphens: the slug appears in CLI commands and URLs. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_NAME_LENGTH = 200;

export interface NewOrganization {
  slug: string;
  name: string;
  plan: string;
  /** Custom plans only: requests per minute; absent means unlimited. */
  customRateLimitPerMinute?: number;
}

/**
 * Creates an MSP organization (operators only: the CLI; there is no API for it, an organization is the
 * outermost scope of every API call). Every field problem is reported at once; a taken slug is a conflict.
 */
export async function createOrganization(
  em: EntityManager,
  clock: Clock,
  input: NewOrganization,
): Promise<Organization> {
  const slug = input.slug.trim();
  const name = input.name.trim();
  const problems: FieldProblem[] = [];
  if (!SLUG.test(slug))
    problems.push({ field: 'slug', problem: 'lower-case letters, digits and inner hyphens, 1 to 63' });
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    problems.push({ field: 'name', problem: `1 to ${MAX_NAME_LENGTH} characters` });
  const plans = Object.values(Plan) as string[];
  if (!plans.includes(input.plan)) problems.push({ field: 'plan', problem: `one of ${plans.join(', ')}` });
  const customRate = input.customRateLimitPerMinute;
  if (
    customRate !== undefined &&
    (input.plan !== Plan.CUSTOM || !Number.isInteger(customRate) || customRate < 1)
  )
    problems.push({ field: 'rateLimit', problem: 'a positive whole number, with the custom plan only' });
  if (problems.length > 0) throw new InvalidRequestError('The organization is not valid', problems);

  return em.transactional(async (tx) => {
    if (await tx.count(Organization, { slug }))
      throw new ConflictError(`An organization with the slug "${slug}" already exists`, { slug });
    const organization = new Organization({
      slug,
      name,
      plan: input.plan as Plan,
      createdAt: clock.now(),
      customRateLimitPerMinute: customRate ?? null,
    });
    await tx.persist(organization).flush();
    return organization;
  });
}
