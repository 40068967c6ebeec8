import type { ApolloServerPlugin, BaseContext, GraphQLServerListener } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { Request } from 'express';
import Negotiator from 'negotiator';

const SANDBOX_SCRIPT = /<script nonce="([^"]+)" src="https:\/\/embeddable-sandbox[^"]*"><\/script>/;

/**
 * Adds to Apollo's page: a link to the self-hosted GraphiQL, and a switch to it when the Sandbox script
 * (from Apollo's CDN) did not load, i.e. offline. Scripts run in order, so right after the Sandbox's tag
 * `EmbeddedSandbox` is defined or its download failed. The additions reuse the page's CSP nonce.
 */
export function withGraphiqlFallback(html: string): string {
  const match = SANDBOX_SCRIPT.exec(html);
  if (!match) return html;
  const nonce = match[1];
  const fallback =
    `<script nonce="${nonce}">if (!window.EmbeddedSandbox) window.location.replace('/graphiql');</script>` +
    `<style nonce="${nonce}">#graphiql-link { position: fixed; right: 12px; bottom: 8px; z-index: 10;` +
    ` font: 12px sans-serif; background: #fff; padding: 2px 6px; border-radius: 4px; }</style>` +
    `<a id="graphiql-link" href="/graphiql">Offline? Use GraphiQL</a>`;
  return html
    .replace(match[0], `${match[0]}${fallback}`)
    .replace(
      'it appears that you might be offline.</p>',
      'it appears that you might be offline. <a href="/graphiql">Open the self-hosted GraphiQL</a>.</p>',
    );
}

/** Apollo's local landing page (the embedded Sandbox), falling back to /graphiql offline. */
export function landingPageWithGraphiqlFallback<
  TContext extends BaseContext,
>(): ApolloServerPlugin<TContext> {
  const apollo = ApolloServerPluginLandingPageLocalDefault({ embed: true }) as ApolloServerPlugin<TContext>;
  return {
    async serverWillStart(service) {
      const listener: GraphQLServerListener | void = await apollo.serverWillStart?.(service);
      if (!listener?.renderLandingPage) return listener;
      const render = listener.renderLandingPage.bind(listener);
      return {
        ...listener,
        async renderLandingPage() {
          const page = await render();
          const html = page.html;
          return {
            html:
              typeof html === 'string'
                ? withGraphiqlFallback(html)
                : async () => withGraphiqlFallback(await html()),
          };
        },
      };
    },
  };
}

/**
 * The media types Apollo Server negotiates an `Accept` header against (ApolloServer.prefersHTML). A GET
 * whose best match is text/html gets the landing page from Apollo and is never executed, whatever its
 * query string holds; anything else may execute and must pass the guard.
 */
const APOLLO_NEGOTIATED_TYPES = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'multipart/mixed; deferSpec=20220824',
  'multipart/mixed; incrementalSpec=v0.2',
  'multipart/mixed',
  'text/html',
];

/**
 * GET /graphql that Apollo answers with its IDE page (no credentials needed: the page executes nothing).
 * Decided from the same negotiation Apollo uses, never from Express's query parser, which stops at 1,000
 * parameters while Apollo reads the raw URL.
 */
export function isLandingPageRequest(req: Request): boolean {
  const accept = req.get('accept');
  return (
    req.method === 'GET' &&
    !!accept &&
    new Negotiator({ headers: { accept } }).mediaType(APOLLO_NEGOTIATED_TYPES) === 'text/html'
  );
}
