/**
 * The GraphQL names and descriptions of the enums of cloud-connection.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { CloudProviderKind } from './cloud-connection.enums.js';

registerEnumType(CloudProviderKind, {
  name: 'CloudProviderKind',
  description:
    'microsoft365: customer tenants through Microsoft Graph with a multi-tenant app of the partner tenant; ' +
    'simulated: the built-in simulated cloud (development and tests)',
});
