import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, CSRF_LIFETIME_SECONDS } from './oauth.settings.js';

/**
 * CSRF protection of the sign-in form (double submit): the page sets a random token in a SameSite=Strict,
 * HttpOnly cookie and repeats it in a hidden field; a post must bring both, equal. Another site can make a
 * browser post the form, but it can neither read the field nor make the browser send the cookie.
 */
export function issueCsrfToken(res: Response, secure: boolean): string {
  const token = randomBytes(32).toString('base64url');
  const attributes = [
    `${CSRF_COOKIE}=${token}`,
    'Path=/oauth/authorize',
    `Max-Age=${CSRF_LIFETIME_SECONDS}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ];
  res.append('Set-Cookie', attributes.join('; '));
  return token;
}

function cookieValue(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

export function csrfTokenValid(req: Request, submitted: unknown): boolean {
  const cookie = cookieValue(req, CSRF_COOKIE);
  if (!cookie || typeof submitted !== 'string') return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}
