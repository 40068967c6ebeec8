import type { ApolloServerPlugin, BaseContext, GraphQLServerListener } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';

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
