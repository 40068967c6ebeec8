import type { AssignedLicense, SubscribedSku, User } from '@microsoft/microsoft-graph-types';
import { CloudError, isCloudError, type CloudRefusal } from '../cloud-error.js';
import type { CloudPages } from '../pages.js';
import type { CloudLicenseAssignmentRecord, CloudSkuRecord } from '../provider.js';
import type { CloudLicenses } from '../tenant-cloud.js';
import type { GraphTenantClient } from './graph-client.js';
import { skuDisplayName } from './graph-sku-names.js';

/** Graph's largest page of users: one request per 999 users for the whole tenant's assignments. */
const USERS_PAGE = 999;

/**
 * Graph answers every license refusal with 400 `Request_BadRequest` and a sentence (learn.microsoft.com,
 * "user: assignLicense" and "Resolve license assignment problems"): the rule is in the message only.
 */
const REFUSALS: ReadonlyArray<[RegExp, CloudRefusal]> = [
  [/usage ?location/i, 'USAGE_LOCATION_REQUIRED'],
  [
    /(does not|doesn't) have (any |enough )?(available )?licenses|no (available|free) licenses/i,
    'NO_FREE_SEAT',
  ],
  [/does not correspond to a valid company license/i, 'UNKNOWN_SKU'],
];

/** Removing a license the user does not hold: Graph says so; for us it is already done. */
const NOT_HELD = /does not have a corresponding license/i;

function withRefusal(error: unknown): unknown {
  if (!isCloudError(error, 'Refused')) return error;
  const refusal = REFUSALS.find(([pattern]) => pattern.test(error.message))?.[1];
  if (!refusal) return error;
  return new CloudError('Refused', error.message, {
    provider: error.provider,
    cloudCode: error.cloudCode,
    refusal,
    cause: error.cause,
  });
}

function skuRecord(sku: SubscribedSku): CloudSkuRecord {
  const skuPartNumber = sku.skuPartNumber ?? sku.skuId ?? '';
  return {
    skuId: sku.skuId ?? '',
    skuPartNumber,
    name: skuDisplayName(skuPartNumber),
    // Seats of active subscriptions; warning (grace period) and suspended ones are not counted as free.
    prepaidUnits: sku.prepaidUnits?.enabled ?? 0,
  };
}

function assignmentsOf(user: User): CloudLicenseAssignmentRecord[] {
  return (user.assignedLicenses ?? [])
    .filter((license: AssignedLicense) => typeof license.skuId === 'string')
    .map((license) => ({ userExternalId: user.id ?? '', skuId: license.skuId! }));
}

/**
 * Licenses of one Microsoft 365 tenant: the SKUs it subscribes to (`GET /subscribedSkus`), who holds which
 * (`GET /users?$select=id,assignedLicenses`, 999 users a page), and `POST /users/{id}/assignLicense` to give
 * or take one. Graph's refusals (no usage location, no seat left, SKU unknown) carry `refusal`, so the
 * license service answers them with the same 409/404 as its own checks give in the sandbox.
 */
export function graphLicenses(graph: GraphTenantClient): CloudLicenses {
  return {
    listSkus: (): CloudPages<CloudSkuRecord> => ({
      async *[Symbol.asyncIterator]() {
        // Company-wide SKUs (appliesTo "Company") cannot be assigned to a user.
        for await (const page of graph.pages<SubscribedSku>('/subscribedSkus'))
          yield page.value.filter((sku) => sku.appliesTo !== 'Company').map(skuRecord);
      },
    }),
    listLicenseAssignments: (): CloudPages<CloudLicenseAssignmentRecord> => ({
      async *[Symbol.asyncIterator]() {
        const query = { $select: 'id,assignedLicenses', $top: USERS_PAGE };
        for await (const page of graph.pages<User>('/users', { query }))
          yield page.value.flatMap(assignmentsOf);
      },
    }),
    async assignLicense(userExternalId, skuId) {
      await graph
        .post(`/users/${encodeURIComponent(userExternalId)}/assignLicense`, {
          addLicenses: [{ skuId, disabledPlans: [] }],
          removeLicenses: [],
        })
        .catch((error: unknown) => {
          throw withRefusal(error);
        });
    },
    async removeLicense(userExternalId, skuId) {
      await graph
        .post(`/users/${encodeURIComponent(userExternalId)}/assignLicense`, {
          addLicenses: [],
          removeLicenses: [skuId],
        })
        .catch((error: unknown) => {
          if (isCloudError(error, 'Refused') && NOT_HELD.test(error.message)) return;
          throw withRefusal(error);
        });
    },
  };
}
