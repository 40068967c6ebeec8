/**
 * The factories of test/factories/*.ts for files on the shared server (test/helpers/shared-suite.ts): same names
 * and arguments, `SharedApp` in place of `TestApp`. The server runs them with its own ORM and returns what they
 * made; this module imports only types, so the test file does not load the app's entities.
 */
import type { SharedApp } from '../helpers/shared-suite.js';
import type { SharedFactories } from '../helpers/shared-server.js';

type OnShared<K extends keyof SharedFactories> = (
  app: SharedApp,
  ...rest: Parameters<SharedFactories[K]>
) => ReturnType<SharedFactories[K]>;

function onShared<K extends keyof SharedFactories>(name: K): OnShared<K> {
  return (app, ...rest) =>
    (
      app.factories[name] as unknown as (
        ...args: Parameters<SharedFactories[K]>
      ) => ReturnType<SharedFactories[K]>
    )(...rest);
}

export const createOrganization = onShared('createOrganization');
export const createApiKey = onShared('createApiKey');
export const createOrganizationWithKeys = onShared('createOrganizationWithKeys');
export const createTenant = onShared('createTenant');
export const grantConsent = onShared('grantConsent');
export const createUser = onShared('createUser');
export const cloudUserOf = onShared('cloudUserOf');
export const createGroup = onShared('createGroup');
export const giveLicense = onShared('giveLicense');
export const createSku = onShared('createSku');
export const createLicenseUser = onShared('createLicenseUser');

export type { OrganizationWithKeys } from './organizations.js';
export type { UserFields } from './users.js';
export type { LicenseUserFields } from './licenses.js';
