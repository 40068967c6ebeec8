/**
 * The factories of test/factories/*.ts for either kind of server: same names and arguments, with a `TestApp`
 * (the file's own server) or a `SharedApp` (the jest worker's shared server, test/helpers/shared-suite.ts,
 * which runs them with its own ORM and returns what they made). See test/helpers/on-server.ts: a file on the
 * shared server that imports its fixtures from here does not load the app's entities.
 */
import { onServer } from '../helpers/on-server.js';
import type { BoundServerSide } from '../helpers/server-side.js';
import type { TestServer } from '../helpers/shared-suite.js';

type Factory<K extends keyof BoundServerSide> = (
  app: TestServer,
  ...rest: Parameters<BoundServerSide[K]>
) => ReturnType<BoundServerSide[K]>;

function factory<K extends keyof BoundServerSide>(name: K): Factory<K> {
  return ((app: TestServer, ...rest: Parameters<BoundServerSide[K]>) =>
    onServer(app, name, ...rest)) as unknown as Factory<K>;
}

export const createOrganization = factory('createOrganization');
export const createApiKey = factory('createApiKey');
export const createOrganizationWithKeys = factory('createOrganizationWithKeys');
export const createTenant = factory('createTenant');
export const grantConsent = factory('grantConsent');
export const createUser = factory('createUser');
export const cloudUserOf = factory('cloudUserOf');
export const createGroup = factory('createGroup');
export const giveLicense = factory('giveLicense');
export const createSku = factory('createSku');
export const createLicenseUser = factory('createLicenseUser');
export const createMember = factory('createMember');
export const createOAuthClient = factory('createOAuthClient');
export const issueAccessToken = factory('issueAccessToken');

export type { OrganizationWithKeys } from './organizations.js';
export type { UserFields } from './users.js';
export type { LicenseUserFields } from './licenses.js';
