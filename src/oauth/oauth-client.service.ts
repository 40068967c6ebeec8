import { findLeanPage } from '../core/lean-read.js';
import { type FieldProblem, invalid, NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { OAuthClient } from './oauth-client.entity.js';
import { generateClientId, randomSecret, sha256, CLIENT_SECRET_PREFIX } from './oauth-secrets.js';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uri.js';

export interface NewOAuthClient {
  name: string;
  redirectUris: string[];
}

export type OAuthClientServiceContext = Pick<ServiceContext, 'em' | 'scope' | 'clock'>;

function problemsOf(input: NewOAuthClient): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100)
    problems.push({ field: 'name', problem: 'must be 1 to 100 characters long' });
  if (input.redirectUris.length === 0)
    problems.push({ field: 'redirectUris', problem: 'must hold at least one URI' });
  if (input.redirectUris.length > MAX_REDIRECT_URIS)
    problems.push({ field: 'redirectUris', problem: `must hold at most ${MAX_REDIRECT_URIS} URIs` });
  input.redirectUris.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) problems.push({ field: `redirectUris.${index}`, problem });
  });
  return problems;
}

/** Register, list and revoke the OAuth clients of one organization and environment (GraphQL, REST, CLI). */
export class OAuthClientService {
  constructor(private readonly ctx: OAuthClientServiceContext) {}

  /** The secret is returned this once; only its hash is kept. */
  async create(input: NewOAuthClient): Promise<{ client: OAuthClient; clientSecret: string }> {
    const problems = problemsOf(input);
    if (problems.length > 0) {
      throw invalid(problems, 'OAuth client');
    }
    const clientSecret = randomSecret(CLIENT_SECRET_PREFIX);
    const client = new OAuthClient(this.ctx.scope, {
      clientId: generateClientId(),
      name: input.name.trim(),
      redirectUris: [...new Set(input.redirectUris)],
      secretHash: sha256(clientSecret),
      createdAt: this.ctx.clock.now(),
    });
    await this.ctx.em.persist(client).flush();
    return { client, clientSecret };
  }

  list(args: PageArgs): Promise<Page<OAuthClient>> {
    return findLeanPage(this.ctx, OAuthClient, {}, args, { createdAt: 'desc', id: 'desc' });
  }

  /** Revokes the client and, in the same transaction, every token it holds. */
  async revoke(id: string): Promise<OAuthClient> {
    return this.ctx.em.transactional(async (em) => {
      const client = await em.findOne(OAuthClient, { id });
      if (!client) throw new NotFoundError('OAuth client', id);
      if (!client.revokedAt) {
        const now = this.ctx.clock.now();
        client.revokedAt = now;
        await em.flush();
        await em.execute(
          'update oauth_tokens set revoked_at = ? where oauth_client_id = ? and revoked_at is null',
          [now, client.id],
        );
      }
      return client;
    });
  }
}
