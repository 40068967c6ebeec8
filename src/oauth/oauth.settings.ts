/** Lifetimes of the OAuth 2.0 artefacts (docs/oauth.md), in seconds. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export interface AttemptLimit {
  points: number;
  durationSeconds: number;
}

/**
 * Brute-force limits (docs/oauth.md "Brute-force protection"); counters live in `rate_limits`.
 * Failures are counted per (target, address) with a small limit, so that one attacker locks out only
 * their own address, and per target from anywhere with a limit ten times higher, so that an attack
 * spread over many addresses is still slowed down.
 */
export const SIGN_IN_LIMITS = {
  /** Every sign-in attempt from one address. */
  perIp: { points: 30, durationSeconds: 15 * 60 },
  /** Failed attempts at one email from one address (a success from there clears them). */
  perAccountIp: { points: 10, durationSeconds: 15 * 60 },
  /** Failed attempts at one email from anywhere (a success gives its own point back). */
  perAccount: { points: 100, durationSeconds: 15 * 60 },
} as const satisfies Record<string, AttemptLimit>;

export const TOKEN_ENDPOINT_LIMITS = {
  /** Every token and revocation request from one address. */
  perIp: { points: 300, durationSeconds: 60 },
  /** Failed client authentications of one client_id from one address. */
  perClientIp: { points: 30, durationSeconds: 15 * 60 },
  /** Failed client authentications of one client_id from anywhere. */
  perClient: { points: 300, durationSeconds: 15 * 60 },
} as const satisfies Record<string, AttemptLimit>;

export interface OAuthLimits {
  signIn: Record<keyof typeof SIGN_IN_LIMITS, AttemptLimit>;
  token: Record<keyof typeof TOKEN_ENDPOINT_LIMITS, AttemptLimit>;
}

/** Limits to use instead of the defaults (tests use small numbers), group by group, limit by limit. */
export interface OAuthLimitOverrides {
  signIn?: Partial<OAuthLimits['signIn']>;
  token?: Partial<OAuthLimits['token']>;
}

export function oauthLimits(overrides: OAuthLimitOverrides = {}): OAuthLimits {
  return {
    signIn: { ...SIGN_IN_LIMITS, ...overrides.signIn },
    token: { ...TOKEN_ENDPOINT_LIMITS, ...overrides.token },
  };
}

/** The CSRF cookie of the sign-in page; as long as someone may take to fill the form in. */
export const CSRF_COOKIE = 'oauth_csrf';
export const CSRF_LIFETIME_SECONDS = 30 * 60;
