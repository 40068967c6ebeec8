import { registerEnumType } from 'type-graphql';

/** Which cloud an organization's live environment is connected to (DECISIONS "The upstream cloud"). */
export enum CloudProviderKind {
  MICROSOFT365 = 'microsoft365',
  /** The built-in simulated cloud, for development and tests: chosen explicitly, never silently. */
  SIMULATED = 'simulated',
}
registerEnumType(CloudProviderKind, {
  name: 'CloudProviderKind',
  description:
    'microsoft365: customer tenants through Microsoft Graph with a multi-tenant app of the partner tenant; ' +
    'simulated: the built-in simulated cloud (development and tests)',
});
