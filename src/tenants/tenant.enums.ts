/**
 * The tenants' enums, plain: tenant.entity.ts registers them with GraphQL and re-exports them, so that a module
 * needing only an enum (the health rules, a test) loads neither type-graphql nor MikroORM.
 */
export enum TenantStatus {
  ACTIVE = 'active',
  SUSPENDED = 'suspended',
}

export enum TenantHealth {
  HEALTHY = 'healthy',
  WARNING = 'warning',
  CRITICAL = 'critical',
}
