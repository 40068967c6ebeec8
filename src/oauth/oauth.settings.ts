/** Lifetimes of the OAuth 2.0 artefacts (docs/oauth.md), in seconds. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** Brute-force limits (docs/oauth.md "Brute-force protection"); counters live in `rate_limits`. */
export const SIGN_IN_LIMITS = {
  /** Every sign-in attempt from one address. */
  perIp: { points: 30, durationSeconds: 15 * 60 },
  /** Failed attempts at one email in a row (a success clears them), from anywhere. */
  perAccount: { points: 10, durationSeconds: 15 * 60 },
} as const;

export const TOKEN_ENDPOINT_LIMITS = {
  /** Every token and revocation request from one address. */
  perIp: { points: 300, durationSeconds: 60 },
  /** Failed token and revocation requests for one client_id (a success gives its point back). */
  perClient: { points: 30, durationSeconds: 15 * 60 },
} as const;

/** The CSRF cookie of the sign-in page; as long as someone may take to fill the form in. */
export const CSRF_COOKIE = 'oauth_csrf';
export const CSRF_LIFETIME_SECONDS = 30 * 60;
