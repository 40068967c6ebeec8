import { InvalidRequestError, type FieldProblem } from '../core/errors.js';
import { CloudProviderKind } from './cloud-connection.enums.js';
import type { ConnectCloudInput } from './cloud-connection.types.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const MAX_SECRET_LENGTH = 1024;

/** Microsoft 365 credentials, checked for shape (whether they work is the connection test's question). */
export interface Microsoft365Credentials {
  partnerTenantId: string;
  clientId: string;
  clientSecret: string;
}

/** The input's credentials for its provider, or 400 naming each field that is wrong. */
export function checkConnectInput(input: ConnectCloudInput): Microsoft365Credentials | null {
  const problems: FieldProblem[] = [];
  const given = {
    partnerTenantId: input.partnerTenantId?.trim() ?? '',
    clientId: input.clientId?.trim() ?? '',
    clientSecret: input.clientSecret ?? '',
  };
  if (input.provider === CloudProviderKind.SIMULATED) {
    for (const [field, value] of Object.entries(given))
      if (value !== '')
        problems.push({ field, problem: 'the simulated cloud takes no credentials: leave it out' });
    if (problems.length > 0) throw new InvalidRequestError('Invalid cloud connection', problems);
    return null;
  }
  if (given.partnerTenantId === '')
    problems.push({ field: 'partnerTenantId', problem: 'is required for microsoft365' });
  else if (!GUID.test(given.partnerTenantId) && !DOMAIN.test(given.partnerTenantId))
    problems.push({
      field: 'partnerTenantId',
      problem: 'must be a tenant id (GUID) or a domain of the tenant such as contoso.onmicrosoft.com',
    });
  if (given.clientId === '') problems.push({ field: 'clientId', problem: 'is required for microsoft365' });
  else if (!GUID.test(given.clientId))
    problems.push({ field: 'clientId', problem: 'must be the application (client) id, a GUID' });
  if (given.clientSecret.trim() === '')
    problems.push({ field: 'clientSecret', problem: 'is required for microsoft365' });
  else if (given.clientSecret.length > MAX_SECRET_LENGTH)
    problems.push({ field: 'clientSecret', problem: `must be at most ${MAX_SECRET_LENGTH} characters` });
  if (problems.length > 0) throw new InvalidRequestError('Invalid cloud connection', problems);
  return {
    ...given,
    partnerTenantId: given.partnerTenantId.toLowerCase(),
    clientId: given.clientId.toLowerCase(),
  };
}
