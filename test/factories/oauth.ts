import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { Permission } from '../../src/core/permissions.js';
import type { Scope } from '../../src/core/scope.js';
import { MemberRole } from '../../src/members/member.entity.js';
import { MemberService } from '../../src/members/member.service.js';
import { OAuthClientService } from '../../src/oauth/oauth-client.service.js';
import { ACCESS_TOKEN_PREFIX, randomSecret } from '../../src/oauth/oauth-secrets.js';
import { OAuthStore } from '../../src/oauth/oauth-store.js';
import type { TestApp } from '../helpers/test-app.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const MEMBER_PASSWORD = 'correct horse battery staple';

export interface RegisteredClient {
  id: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export async function createMember(
  app: TestApp,
  organizationId: string,
  fields: { email?: string; role?: MemberRole; password?: string } = {},
): Promise<{ id: string; email: string; password: string }> {
  const password = fields.password ?? MEMBER_PASSWORD;
  const member = await new MemberService({
    em: app.orm.em.fork(),
    scope: { organizationId },
    clock: app.clock,
  }).create({
    email: fields.email ?? `member-${randomUUID().slice(0, 8)}@example.com`,
    password,
    role: fields.role ?? MemberRole.OWNER,
  });
  return { id: member.id, email: member.email, password };
}

export async function createOAuthClient(
  app: TestApp,
  scope: Scope,
  fields: { name?: string; redirectUris?: string[] } = {},
): Promise<RegisteredClient> {
  const redirectUris = fields.redirectUris ?? [REDIRECT_URI];
  const { client: created, clientSecret } = await new OAuthClientService({
    em: app.orm.em.fork(),
    scope,
    clock: app.clock,
  }).create({ name: fields.name ?? 'Test PSA', redirectUris });
  return { id: created.id, clientId: created.clientId, clientSecret, redirectUri: redirectUris[0] };
}

/**
 * An access token with exactly these scopes, stored as the token endpoint stores one (for the scope
 * matrix, which is about enforcement, not about the flow that issues tokens).
 */
export async function issueAccessToken(
  app: TestApp,
  registered: RegisteredClient,
  member: { id: string },
  scopes: Permission[],
): Promise<string> {
  const store = new OAuthStore(app.orm, app.clock);
  const record = await store.findClient(registered.clientId);
  const accessToken = randomSecret(ACCESS_TOKEN_PREFIX);
  await store.saveTokens({
    client: record!,
    holder: { memberId: member.id, role: MemberRole.OWNER, grantId: randomUUID() },
    scopes,
    accessToken,
  });
  return accessToken;
}

/**
 * openid-client (a client library no one here wrote) pointed at the test server, over plain http;
 * `headers` go with each of its requests (e.g. X-Forwarded-For).
 */
export function openIdConfiguration(
  app: Server,
  registered: RegisteredClient,
  headers: Record<string, string> = {},
): client.Configuration {
  const config = new client.Configuration(
    {
      issuer: app.baseUrl,
      authorization_endpoint: `${app.baseUrl}/oauth/authorize`,
      token_endpoint: `${app.baseUrl}/oauth/token`,
      revocation_endpoint: `${app.baseUrl}/oauth/revoke`,
    },
    registered.clientId,
    registered.clientSecret,
  );
  client.allowInsecureRequests(config);
  if (Object.keys(headers).length > 0) {
    config[client.customFetch] = (url, options) => {
      const merged = new Headers(options.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return fetch(url, { ...options, headers: merged });
    };
  }
  return config;
}

export interface PageResponse {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

/** Where a server answers: a TestApp, or another server on the same database. */
export interface Server {
  baseUrl: string;
}

/**
 * What a browser does with the sign-in page: GET it, then post its form with the cookie it set.
 * `headers` go with every request (e.g. X-Forwarded-For, to speak from another address behind a proxy).
 */
export class Browser {
  private cookies = new Map<string, string>();

  constructor(
    private readonly app: Server,
    private readonly headers: Record<string, string> = {},
  ) {}

  private absorb(headers: Headers): void {
    for (const cookie of headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair.indexOf('=');
      this.cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string | URL): Promise<PageResponse> {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { ...this.headers, cookie: this.cookieHeader() },
    });
    this.absorb(response.headers);
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }

  /** Posts the page's form: its hidden fields plus `fields` (email, password, decision). */
  async submit(page: PageResponse, fields: Record<string, string>): Promise<PageResponse> {
    const form = new URLSearchParams();
    for (const match of page.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      form.set(match[1], unescapeHtml(match[2]));
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const response = await fetch(`${this.app.baseUrl}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...this.headers,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
      },
      body: form,
    });
    this.absorb(response.headers);
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The whole front channel with openid-client: build the authorization URL (PKCE S256 and state),
 * sign in and consent on the page, and return the callback URL the browser lands on.
 */
export async function authorizeInBrowser(
  app: TestApp,
  config: client.Configuration,
  options: { scope: string; email: string; password: string; redirectUri?: string; pkce?: boolean },
): Promise<{ callback: URL; codeVerifier: string; state: string }> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const parameters: Record<string, string> = {
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    scope: options.scope,
    state,
  };
  if (options.pkce !== false) {
    parameters.code_challenge = await client.calculatePKCECodeChallenge(codeVerifier);
    parameters.code_challenge_method = 'S256';
  }
  const browser = new Browser(app);
  const page = await browser.get(client.buildAuthorizationUrl(config, parameters));
  if (page.status !== 200) throw new Error(`sign-in page answered ${page.status}: ${page.html}`);
  const answer = await browser.submit(page, {
    email: options.email,
    password: options.password,
    decision: 'allow',
  });
  if (answer.status !== 302 || !answer.location)
    throw new Error(`sign-in answered ${answer.status}: ${answer.html}`);
  return { callback: new URL(answer.location), codeVerifier, state };
}

/** POST a form to an OAuth endpoint by hand (for the cases a well-behaved library refuses to send). */
export async function postForm(
  app: Server,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, string> | null; headers: Headers }> {
  const response = await fetch(app.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, string>) : null,
    headers: response.headers,
  };
}
