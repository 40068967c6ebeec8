/**
 * Which redirect URIs a client may register: https anywhere, http only on the loopback interface (local
 * development and native apps, RFC 8252), never a fragment (RFC 6749 3.1.2). The authorize endpoint then
 * compares the registered strings exactly: no prefix or pattern matching.
 */
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why `uri` cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return `"${uri}" must not contain a fragment (#)`;
  if (url.username || url.password) return `"${uri}" must not contain credentials`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `"${uri}" must use https (http is allowed for localhost, 127.0.0.1 and [::1] only)`;
}
