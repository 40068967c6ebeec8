import * as client from 'openid-client';

/** Members, OAuth clients and tokens, made with the app's ORM (oauth-records.ts) on either kind of server. */
export { createMember, createOAuthClient, issueAccessToken } from './shared.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const MEMBER_PASSWORD = 'correct horse battery staple';

export interface RegisteredClient {
  id: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
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
  app: Server,
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
