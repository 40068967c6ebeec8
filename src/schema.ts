import { TenantGroupResolver } from './tenant-groups/tenant-group.resolver.js';
import { UserDirectoryResolver } from './user-directory/user-directory.resolver.js';
import { ActorResolver } from './actors/actor.resolver.js';
import { InfoBarrierResolver } from './info-barriers/info-barrier.resolver.js';
import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import { validate, type ValidationError } from 'class-validator';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, getMetadataStorage, type ClassType, type NonEmptyArray } from 'type-graphql';
import { BackupResolver } from './backup/backup.resolver.js';
import { ConnectorResolver } from './compliance/connector.resolver.js';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { ContactResolver } from './contacts/contact.resolver.js';
import { RestrictedUserResolver } from './exchange/restricted-user.resolver.js';
import { InvalidRequestError, type FieldProblem } from './core/errors.js';
import { withServiceScalars } from './core/scalars.js';
import { IntegrationResolver } from './integrations/integration.resolver.js';
import { LicenseResolver } from './licenses/license.resolver.js';
import { MemberResolver } from './members/member.resolver.js';
import { OAuthClientResolver } from './oauth/oauth-client.resolver.js';
import { PortalResolver } from './portal/portal.resolver.js';
import { EventSubscriptionResolver } from './subscriptions/event-subscription.resolver.js';
import { TenantResolver } from './tenants/tenant.resolver.js';
import { DeletedUserResolver } from './users/deleted-user.resolver.js';
import { GuestResolver } from './users/guest.resolver.js';
import { UserResolver } from './users/user.resolver.js';
import { UserManagementResolver } from './user-management/user-management.resolver.js';
import { UserImportResolver } from './user-management/user-import.resolver.js';
import { OffboardingResolver } from './user-management/offboarding.resolver.js';
import { OneDriveResolver } from './user-management/onedrive.js';
import { EnrollmentRestrictionResolver } from './device-management/enrollment-policy.resolver.js';
import { DeviceDashboardResolver } from './device-management/device-dashboard.resolver.js';
import { WebhookDeliveryResolver, WebhookResolver } from './webhooks/webhook.resolver.js';
import { AlertResolver } from './alerts/alert.resolver.js';
import { DeviceResolver } from './devices/device.resolver.js';
import { EndpointDlpResolver } from './endpoint-dlp/dlp.resolver.js';
import { RecommendationResolver } from './recommendations/recommendation.resolver.js';
import { SecureScoreResolver } from './secure-score/secure-score.resolver.js';

/** Every feature's resolvers. A new feature adds its resolver here and nowhere else. */
export const RESOLVERS: NonEmptyArray<ClassType> = [
  TenantResolver,
  ApiKeyResolver,
  LicenseResolver,
  UserResolver,
  DeletedUserResolver,
  GuestResolver,
  ContactResolver,
  RestrictedUserResolver,
  EventSubscriptionResolver,
  WebhookResolver,
  WebhookDeliveryResolver,
  IntegrationResolver,
  MemberResolver,
  OAuthClientResolver,
  PortalResolver,
  AlertResolver,
  DeviceResolver,
  EndpointDlpResolver,
  BackupResolver,
  ConnectorResolver,
  RecommendationResolver,
  SecureScoreResolver,
  InfoBarrierResolver,
  UserManagementResolver,
  UserImportResolver,
  OffboardingResolver,
  OneDriveResolver,
  EnrollmentRestrictionResolver,
  DeviceDashboardResolver,
  TenantGroupResolver,
  UserDirectoryResolver,
  ActorResolver,
];

function fieldProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ field, problem }));
    return [...own, ...fieldProblems(error.children ?? [], field)];
  });
}

/** class-validator rules on inputs and args become INVALID_REQUEST with `details.fields`. */
async function validateArgument(value: unknown): Promise<void> {
  if (value === null || typeof value !== 'object') return;
  const values = Array.isArray(value) ? value : [value];
  for (const item of values) {
    if (item === null || typeof item !== 'object') continue;
    const errors = await validate(item as object, { forbidUnknownValues: false });
    if (errors.length > 0) {
      const fields = fieldProblems(errors);
      throw new InvalidRequestError(
        `Invalid request: ${fields.map((f) => `${f.field} ${f.problem.replace(new RegExp(`^${f.field.split('.').pop()} `), '')}`).join('; ')}`,
        fields,
      );
    }
  }
}

/**
 * Plain fields (a property or getter of the object, no field resolver) are read by the executor itself instead of
 * through type-graphql's per-field wrapper. The wrapper only runs middlewares and auth checks, and this schema has
 * neither (no global middlewares, no authChecker, no @UseMiddleware/@Authorized on fields: permissions are checked
 * per operation, src/http/operation-requirements.ts); it cost an object, a closure and a resolver call per field
 * of every item (600 per page of 25 users, issue #11). A field published under another name than its property
 * (`@Field({ name })`) keeps the wrapper, since the executor would read the published name.
 */
function readPlainFieldsDirectly(): void {
  const storage = getMetadataStorage();
  for (const field of storage.fields) {
    const renamed = field.name !== field.schemaName;
    const guarded = (field.middlewares?.length ?? 0) > 0 || field.roles !== undefined;
    if (field.simple === undefined && (renamed || guarded)) field.simple = false;
  }
  for (const objectType of storage.objectTypes) objectType.simpleResolvers ??= true;
}

export async function buildAppSchema(): Promise<GraphQLSchema> {
  readPlainFieldsDirectly();
  const schema = await buildSchema({
    resolvers: RESOLVERS,
    validateFn: validateArgument,
    // type-graphql needs a pub/sub once any subscription exists; event subscriptions read their own
    // per-server EventHub instead (src/subscriptions), this one serves topic-based subscriptions.
    pubSub: createPubSub(),
  });
  return withServiceScalars(schema);
}
