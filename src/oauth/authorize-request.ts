import type { Permission } from '../core/permissions.js';
import { isKnownScope, normalizeScopes } from './oauth-scopes.js';
import type { ClientRecord, OAuthStore } from './oauth-store.js';

/** The parameters of an authorization request (RFC 6749 4.1.1, RFC 7636 4.3), as sent. */
export const AUTHORIZATION_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
export type AuthorizationParameter = (typeof AUTHORIZATION_PARAMETERS)[number];
export type AuthorizationParams = Partial<Record<AuthorizationParameter, string>>;

export type AuthorizationCheck =
  /** The client or redirect URI cannot be trusted: answer with an error page, never a redirect. */
  | { kind: 'page'; status: number; message: string }
  /** An error the client should learn of, at its (verified) redirect URI. */
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; client: ClientRecord; params: AuthorizationParams; scopes: Permission[] };

/** RFC 6749 appendix A: state and the like are printable ASCII. */
const VSCHAR = /^[\x20-\x7e]+$/;
const MAX_STATE_LENGTH = 1000;
/** RFC 7636 4.2: BASE64URL(SHA256(verifier)) is 43 characters; the ABNF allows 43 to 128. */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Reads the parameters from a query string or form; a parameter sent twice is kept as "duplicated". */
export function readAuthorizationParams(source: Record<string, unknown>): {
  params: AuthorizationParams;
  duplicated: AuthorizationParameter[];
} {
  const params: AuthorizationParams = {};
  const duplicated: AuthorizationParameter[] = [];
  for (const name of AUTHORIZATION_PARAMETERS) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') params[name] = value;
    else if (value !== undefined && value !== '') duplicated.push(name);
  }
  return { params, duplicated };
}

export function errorRedirect(
  redirectUri: string,
  error: string,
  description: string,
  state: string | undefined,
): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}

/**
 * Validates an authorization request before the sign-in page is shown (and again when it is posted).
 * Order of RFC 6749 4.1.2.1: the client and the redirect URI first (an error page: redirecting to an
 * unverified URI would make us an open redirector), then everything else as an error redirect.
 */
export async function checkAuthorizationRequest(
  store: OAuthStore,
  source: Record<string, unknown>,
): Promise<AuthorizationCheck> {
  const { params, duplicated } = readAuthorizationParams(source);
  const page = (message: string): AuthorizationCheck => ({ kind: 'page', status: 400, message });
  if (duplicated.includes('client_id') || duplicated.includes('redirect_uri'))
    return page('client_id and redirect_uri must each be sent once.');
  if (!params.client_id) return page('The request has no client_id.');
  const client = VSCHAR.test(params.client_id) ? await store.findClient(params.client_id) : null;
  if (!client) return page('The application (client_id) is not registered, or it was revoked.');
  if (!params.redirect_uri) return page('The request has no redirect_uri.');
  if (!client.redirectUris.includes(params.redirect_uri))
    return page('The redirect_uri is not one of the addresses registered for this application.');

  const state = params.state && VSCHAR.test(params.state) ? params.state : undefined;
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    location: errorRedirect(params.redirect_uri!, error, description, state),
  });
  if (duplicated.length > 0) return fail('invalid_request', `${duplicated.join(', ')} must be sent once`);
  if (params.state !== undefined && (!state || params.state.length > MAX_STATE_LENGTH))
    return fail('invalid_request', `state must be printable ASCII, at most ${MAX_STATE_LENGTH} characters`);
  if (!params.response_type) return fail('invalid_request', 'response_type is missing');
  if (params.response_type !== 'code')
    return fail('unsupported_response_type', 'only response_type=code is supported');

  const requested = params.scope?.trim().split(/\s+/) ?? [];
  const unknown = requested.filter((scope) => !isKnownScope(scope));
  const scopes = normalizeScopes(requested);
  if (unknown.length > 0) return fail('invalid_scope', `unknown scope: ${unknown.join(' ')}`);
  if (!scopes) return fail('invalid_scope', 'scope is required (space-separated, e.g. "read:tenants")');

  if (params.code_challenge_method && !params.code_challenge)
    return fail('invalid_request', 'code_challenge_method without code_challenge');
  if (params.code_challenge) {
    if ((params.code_challenge_method ?? 'S256') !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256');
    if (!CODE_CHALLENGE.test(params.code_challenge))
      return fail('invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-]');
  }
  return { kind: 'ok', client, params, scopes };
}
