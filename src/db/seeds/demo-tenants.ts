/**
 * The demo's customers as the simulated cloud holds them: data only, apart from src/db/seeds/demo.ts (which
 * imports the whole app to seed them), so a test or tool that needs an external id or a name of theirs does
 * not evaluate the app for it. demo.ts re-exports both.
 */
import type { SimulatedTenantSpec } from '../../cloud/simulated/index.js';

/**
 * The demo organization's customers, onboarded into its sandbox. Fixed seeds and ids: every fresh
 * database gets the same directories (dates are relative to the moment of seeding).
 */
export const DEMO_TENANTS: SimulatedTenantSpec[] = [
  {
    externalId: '3f1c2a9e-5b7d-4e08-9c61-0a2d4b6e8f01',
    displayName: 'Contoso Dental Group',
    domains: ['contosodental.com', 'contosodental.onmicrosoft.com'],
    seed: 1001,
    employees: 42,
    country: 'US',
    departments: ['Clinical', 'Front Office', 'Finance', 'IT'],
    suite: 'SPB',
  },
  {
    externalId: '8a4e6c1d-2f90-4b3a-a7e5-1c9d3f5b7a02',
    displayName: 'Northwind Logistics',
    domains: ['northwindlogistics.com', 'northwindlogistics.onmicrosoft.com'],
    seed: 1002,
    employees: 130,
    country: 'US',
    departments: [
      'Sales',
      'Operations',
      'Warehouse',
      'Transport',
      'Customer Service',
      'Finance',
      'Human Resources',
      'IT',
    ],
    hybrid: true,
  },
  {
    externalId: 'c27b9e40-6d13-4f5a-8b2c-7e0a1d3c5f03',
    displayName: 'Fabrikam Architects',
    domains: ['fabrikam-architects.co.uk', 'fabrikamarchitects.onmicrosoft.com'],
    seed: 1003,
    employees: 34,
    country: 'GB',
    departments: ['Design', 'Engineering', 'Marketing', 'Finance'],
    suite: 'O365_BUSINESS_PREMIUM',
  },
  {
    externalId: '5e8d0b72-9a46-4c1f-b3d8-2f6a8c0e1b04',
    displayName: 'Bluebird Veterinary Clinics',
    domains: ['bluebirdvets.ca', 'bluebirdvets.onmicrosoft.com'],
    seed: 1004,
    employees: 56,
    country: 'CA',
    departments: ['Veterinary', 'Front Office', 'Human Resources', 'Finance'],
  },
  {
    externalId: '9b3f7d15-0c82-4e6a-9f41-8d2b4a6c0e05',
    displayName: 'Harbor & Pine Legal LLP',
    domains: ['harborpinelegal.com', 'harborpinelegal.onmicrosoft.com'],
    seed: 1005,
    employees: 28,
    country: 'US',
    departments: ['Legal', 'Finance', 'IT'],
    hybrid: true,
    suite: 'SPB',
  },
  {
    externalId: 'e4a6c8f0-1b3d-4f5e-8a7c-9e1b3d5f7a06',
    displayName: 'Alpenblick Bau AG',
    domains: ['alpenblick-bau.ch', 'alpenblickbau.onmicrosoft.com'],
    seed: 1006,
    employees: 75,
    country: 'CH',
    departments: ['Engineering', 'Field Operations', 'Sales', 'Finance', 'IT'],
  },
];

/**
 * A customer that exists in the simulated cloud and granted the demo organization delegated access, but is
 * not onboarded yet, to try onboarding with (`onboardTenant(input: {externalId})` or
 * `npm run -s cli -- tenants onboard --org demo --external-id …`).
 */
export const DEMO_AVAILABLE_TENANT: SimulatedTenantSpec = {
  externalId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  displayName: 'Cedar Street Bakery',
  domains: ['cedarstreetbakery.com', 'cedarstreetbakery.onmicrosoft.com'],
  seed: 1007,
  employees: 18,
  country: 'US',
  departments: ['Operations', 'Sales', 'Finance'],
};
