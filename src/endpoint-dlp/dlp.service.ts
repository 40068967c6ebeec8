import { InvalidRequestError } from '../core/errors.js';
import { anyOf, atLeast, below, containsText } from '../core/lean-conditions.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { EndpointDlpAlert, EndpointDlpPolicy } from './dlp.entity.js';
import type { DlpAlertFilter, DlpPolicyFilter } from './dlp.types.js';

/**
 * Endpoint DLP of a tenant (SPEC 2.6, 4.2), read-only: policies and their alerts are managed in the cloud
 * and copied by sync (dlp-sync.ts); these lists page our copy.
 */
export class EndpointDlpService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Policies by name; one statement for page and total. */
  async policies(
    tenantId: string,
    filter: DlpPolicyFilter,
    page: PageArgs,
  ): Promise<Page<EndpointDlpPolicy>> {
    const activities = filter.activity ?? [];
    const policies = await findLeanPage(
      this.ctx,
      EndpointDlpPolicy,
      { tenantId },
      page,
      { name: 'asc', id: 'asc' },
      [
        ...anyOf('action', filter.action),
        ...(activities.length > 0
          ? [
              {
                sql: '"monitored_activities" && ?::text[]',
                params: [`{${activities.map((a) => `"${a}"`).join(',')}}`],
              },
            ]
          : []),
        ...containsText('search', ['name'], filter.search),
      ],
    );
    if (policies.items.length === 0) await new TenantService(this.ctx).get(tenantId);
    return policies;
  }

  /** What the policies matched, newest first; one statement for page and total. */
  async alerts(tenantId: string, filter: DlpAlertFilter, page: PageArgs): Promise<Page<EndpointDlpAlert>> {
    if (filter.from && filter.to && filter.from > filter.to)
      throw InvalidRequestError.field('from', 'must not be after to');
    const alerts = await findLeanPage(
      this.ctx,
      EndpointDlpAlert,
      { tenantId },
      page,
      { occurredAt: 'desc', id: 'desc' },
      [
        ...anyOf(
          'policy_id',
          filter.policyId?.map((id) => id.toLowerCase()),
        ),
        ...anyOf('activity', filter.activity),
        ...anyOf('action_taken', filter.actionTaken),
        ...atLeast('occurred_at', filter.from),
        ...below('occurred_at', filter.to),
      ],
    );
    if (alerts.items.length === 0) await new TenantService(this.ctx).get(tenantId);
    return alerts;
  }
}
