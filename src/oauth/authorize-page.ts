import type { Response } from 'express';
import type { Permission } from '../core/permissions.js';
import { Environment } from '../core/scope.js';
import type { AuthorizationParams } from './authorize-request.js';
import { SCOPE_DESCRIPTIONS } from './oauth-scopes.js';
import type { ClientRecord } from './oauth-store.js';

/** Everything that reaches the page is escaped here: client names and parameters are attacker-chosen. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"'`]/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[character]!,
  );
}

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
  main { max-width: 26rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 1.25rem; margin-top: 0; }
  ul { padding-left: 1.2rem; } li { margin: .35rem 0; } code { font-size: .85rem; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem;
         margin-top: .25rem; border: 1px solid #b8bfcc; border-radius: 4px; font-size: 1rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { flex: 1; padding: .6rem; font-size: 1rem; border-radius: 4px; border: 1px solid #2f5bd3;
           cursor: pointer; }
  button[value=allow] { background: #2f5bd3; color: #fff; }
  button[value=deny] { background: #fff; color: #2f5bd3; }
  .error { background: #fdecea; color: #8a1c12; padding: .75rem; border-radius: 4px; }
  .muted { color: #5b6475; font-size: .85rem; }`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

export interface SignInPage {
  client: ClientRecord;
  params: AuthorizationParams;
  scopes: Permission[];
  csrfToken: string;
  /** Shown above the form after a failed attempt. */
  error?: string;
  /** Kept in the field after a failed attempt. */
  email?: string;
}

/** The sign-in and consent page: who asks, for what, where the member will be sent back. */
export function renderSignInPage(page: SignInPage): string {
  const { client, params } = page;
  const environment = client.environment === Environment.LIVE ? 'live' : 'sandbox';
  const hidden = Object.entries({ ...params, csrf_token: page.csrfToken })
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value ?? '')}">`)
    .join('\n');
  const scopes = page.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[scope])}</li>`)
    .join('\n');
  const returnTo = new URL(params.redirect_uri!).origin;
  return layout(
    `Authorize ${client.name}`,
    `<h1>Sign in to authorize <strong>${escapeHtml(client.name)}</strong></h1>
<p><strong>${escapeHtml(client.name)}</strong> asks to act on your behalf in
<strong>${escapeHtml(client.organizationName)}</strong> (${environment} environment) with these permissions:</p>
<ul>
${scopes}
</ul>
${page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(page.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p class="muted">Afterwards you will be sent back to ${escapeHtml(returnTo)}.</p>`,
  );
}

/** Shown when the request cannot be answered with a redirect (unknown client, unregistered redirect URI...). */
export function renderErrorPage(message: string): string {
  return layout(
    'Authorization failed',
    `<h1>This authorization request cannot be completed</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p class="muted">Go back to the application and start again, or tell its developer.</p>`,
  );
}

/** The page must not be framed (clickjacking), cached, or leak the request's URL in a Referer. */
const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

export function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set(PAGE_HEADERS).type('html').send(html);
}
