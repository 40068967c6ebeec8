import { GraphError } from '@microsoft/microsoft-graph-client';
import { CloudError, type CloudErrorOptions } from '../cloud-error.js';

export const MICROSOFT365 = 'microsoft365';

/**
 * A 401 of Microsoft Graph (a call or a `$batch` item) or of Defender for Endpoint: the token itself refused,
 * not a permission (403). A Forbidden CloudError like any other, but one that a fresh token may cure: the
 * clients ask for one once (graph-token-refusal.ts, `withTokenRenewal`); a 401 means nothing was done.
 */
export class TokenRefusedError extends CloudError {
  constructor(message: string, options: CloudErrorOptions) {
    super('Forbidden', message, options);
  }
}

/** When Graph or Entra ID is failing and says nothing about when to come back. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * What a failed token request means, by Entra ID's AADSTS code (learn.microsoft.com, "Microsoft Entra
 * authentication and authorization error codes"). The connection test (src/cloud-connection) names the
 * `problem` to the person who typed the credentials; the provider decides from the CloudError's kind.
 */
export type TokenProblem =
  'CONSENT_REQUIRED' | 'APP_UNKNOWN' | 'BAD_SECRET' | 'SECRET_EXPIRED' | 'TENANT_UNKNOWN' | 'APP_DISABLED';

interface AadstsMeaning {
  problem: TokenProblem;
  kind: 'Forbidden' | 'NotFound';
  message: (tenantId: string) => string;
}

const AADSTS: Record<string, AadstsMeaning> = {
  AADSTS65001: {
    problem: 'CONSENT_REQUIRED',
    kind: 'Forbidden',
    message: (tenant) =>
      `Tenant ${tenant} has not consented to the application (an administrator must grant it)`,
  },
  // In the tenant that registered the app: a wrong client id. In a customer tenant: the app has no service
  // principal there, i.e. the customer never consented to it.
  AADSTS700016: {
    problem: 'APP_UNKNOWN',
    kind: 'Forbidden',
    message: (tenant) =>
      `The application is not known in tenant ${tenant}: the client id is wrong, or the tenant has not consented to it`,
  },
  AADSTS7000215: {
    problem: 'BAD_SECRET',
    kind: 'Forbidden',
    message: () => 'The client secret is not valid for this application (use the secret value, not its id)',
  },
  AADSTS7000222: {
    problem: 'SECRET_EXPIRED',
    kind: 'Forbidden',
    message: () => 'The client secret has expired: create a new one in the app registration',
  },
  AADSTS90002: {
    problem: 'TENANT_UNKNOWN',
    kind: 'NotFound',
    message: (tenant) => `Tenant ${tenant} does not exist`,
  },
  AADSTS900023: {
    problem: 'TENANT_UNKNOWN',
    kind: 'NotFound',
    message: (tenant) => `"${tenant}" is not a valid tenant id or domain`,
  },
  AADSTS7000112: {
    problem: 'APP_DISABLED',
    kind: 'Forbidden',
    message: (tenant) => `The application is disabled in tenant ${tenant}`,
  },
};

/** The problem a token failure stands for (from its AADSTS code), when it is one the table knows. */
export function tokenProblemOf(error: CloudError): TokenProblem | undefined {
  return error.cloudCode ? AADSTS[error.cloudCode]?.problem : undefined;
}

/**
 * MSAL's AuthError (and its ServerError: `errorNo`, `status`), told by shape rather than by class: msal-node is
 * loaded only when a token is first asked for (graph-token.ts), and this module must not load it.
 */
interface MsalError {
  errorCode: string;
  errorMessage: string;
  errorNo?: string | number;
  status?: number;
}

function msalErrorOf(error: unknown): MsalError | null {
  if (!(error instanceof Error)) return null;
  const candidate = error as Error & Partial<MsalError>;
  return typeof candidate.errorCode === 'string' && typeof candidate.errorMessage === 'string'
    ? (candidate as MsalError)
    : null;
}

function aadstsCode(error: MsalError): string | undefined {
  const errorNo = error.errorNo;
  if (errorNo !== undefined && errorNo !== '') return `AADSTS${String(errorNo)}`;
  return /AADSTS\d+/.exec(error.errorMessage)?.[0];
}

/** Seconds of a Retry-After header (a number of seconds or an HTTP date), when there is one. */
export function retryAfterOf(headers: { get(name: string): string | null } | undefined): number | undefined {
  const raw = headers?.get('retry-after');
  if (raw === null || raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** A failed client-credentials token request (MSAL's errors) as a CloudError. */
export function cloudErrorFromToken(error: unknown, tenantId: string): CloudError {
  if (error instanceof CloudError) return error;
  const options = { provider: MICROSOFT365, cause: error };
  const authError = msalErrorOf(error);
  if (!authError)
    return new CloudError('Transient', `Entra ID could not be reached for tenant ${tenantId}`, options);
  const code = aadstsCode(authError);
  const meaning = code ? AADSTS[code] : undefined;
  if (meaning)
    return new CloudError(meaning.kind, meaning.message(tenantId), {
      ...options,
      cloudCode: code,
      ...(meaning.problem === 'CONSENT_REQUIRED' || meaning.problem === 'APP_UNKNOWN'
        ? { reason: 'CONSENT_REQUIRED' as const }
        : {}),
    });
  const status = authError.status;
  if (status === 429)
    return new CloudError('Throttled', 'Entra ID is throttling token requests', {
      ...options,
      cloudCode: code,
      retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS,
    });
  if (status === undefined || status >= 500)
    return new CloudError('Transient', `Entra ID failed to issue a token for tenant ${tenantId}`, {
      ...options,
      cloudCode: code,
      retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS,
    });
  return new CloudError(
    'Refused',
    `Entra ID refused a token for tenant ${tenantId} (${code ?? authError.errorCode})`,
    {
      ...options,
      cloudCode: code ?? authError.errorCode,
    },
  );
}

/** Graph's message, cut to a readable length (it is shown to the caller of a Refused call). */
function graphMessage(error: GraphError): string {
  const text = (error.message || error.code || `Graph answered ${error.statusCode}`).trim();
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

const DELTA_EXPIRED_CODES = new Set(['syncStateNotFound', 'resyncRequired', 'SyncStateNotFound']);

/** Whether a delta query failed because its deltaLink expired (learn.microsoft.com, "delta query overview"). */
export function isDeltaLinkExpired(error: unknown): boolean {
  return (
    error instanceof CloudError &&
    error.kind === 'NotFound' &&
    error.cause instanceof GraphError &&
    (error.cause.statusCode === 410 || DELTA_EXPIRED_CODES.has(error.cause.code ?? ''))
  );
}

/**
 * A failed Graph call as a CloudError (learn.microsoft.com, "Microsoft Graph error responses"): 404 and 410 NotFound;
 * 401/403 Forbidden (403 Authorization_RequestDenied: an application permission is missing); 429 Throttled
 * and 5xx Transient with Graph's Retry-After; 400/409 and the other 4xx Refused with Graph's message.
 */
export function cloudErrorFromGraph(error: unknown, what: string): CloudError {
  if (error instanceof CloudError) return error;
  const options = { provider: MICROSOFT365, cause: error };
  if (!(error instanceof GraphError) || error.statusCode <= 0)
    return new CloudError('Transient', `Microsoft Graph could not be reached (${what})`, {
      ...options,
      retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS,
    });
  const status = error.statusCode;
  const detail = { ...options, cloudCode: error.code ?? undefined };
  const retryAfterSeconds = retryAfterOf(error.headers);
  if (status === 404) return new CloudError('NotFound', `${what}: not found in Microsoft 365`, detail);
  // An expired delta link (410 Gone, or 400 syncStateNotFound): the sync state is gone, a full sync follows.
  if (status === 410 || DELTA_EXPIRED_CODES.has(error.code ?? ''))
    return new CloudError('NotFound', `${what}: the delta link has expired`, detail);
  if (status === 401)
    return new TokenRefusedError(`Microsoft Graph refused the app's token (${what})`, detail);
  if (status === 403)
    return new CloudError('Forbidden', `Microsoft Graph refused ${what}: ${graphMessage(error)}`, {
      ...detail,
      reason: 'PERMISSION_MISSING',
    });
  if (status === 429)
    return new CloudError('Throttled', `Microsoft Graph is throttling this tenant (${what})`, {
      ...detail,
      retryAfterSeconds: retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
    });
  if (status >= 500 || status === 408)
    return new CloudError('Transient', `Microsoft Graph failed (${status}) for ${what}`, {
      ...detail,
      retryAfterSeconds: retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
    });
  return new CloudError('Refused', graphMessage(error), detail);
}
