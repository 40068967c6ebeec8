/** Which cloud an organization's live environment is connected to (DECISIONS "The upstream cloud"). */
export enum CloudProviderKind {
  MICROSOFT365 = 'microsoft365',
  /** The built-in simulated cloud, for development and tests: chosen explicitly, never silently. */
  SIMULATED = 'simulated',
}
