/** Every test server (in process or child) seals webhook secrets with this key, as production would. */
export const TEST_SECRETS_KEY = 'dGVzdC1vbmx5IHNlY3JldHMga2V5OiAzMiBieXRlcyE=';
