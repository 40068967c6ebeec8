import type { Request, Response } from 'express';

/** Where a newcomer goes from `GET /` (issue #33 item 7: it was a JSON 404). */
export const HOME_LINKS = {
  docs: { path: '/docs', title: 'REST API reference (Swagger UI)' },
  openapi: { path: '/openapi.json', title: 'OpenAPI 3.1 document' },
  graphiql: { path: '/graphiql', title: 'GraphiQL (offline GraphQL IDE)' },
  graphql: { path: '/graphql', title: 'GraphQL endpoint (Apollo Sandbox in a browser)' },
  rest: { path: '/v1/tenants', title: 'REST: the tenants (needs Authorization: Bearer <key>)' },
  health: { path: '/health/ready', title: 'Readiness' },
} as const;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * `GET /`: a small page for a browser, JSON with the same links for anything else. Public, like /docs: it names
 * pages, no data. How to get a key is said here too, since every link but health needs one.
 */
export function homePage(req: Request, res: Response): void {
  const key = 'npm run -s cli -- api-keys create --org demo --level admin --env test';
  if (req.accepts(['json', 'html']) === 'html') {
    const items = Object.values(HOME_LINKS)
      .map((link) => `<li><a href="${link.path}">${link.path}</a>: ${escape(link.title)}</li>`)
      .join('\n');
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MSP administration platform</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;line-height:1.5}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>MSP administration platform</h1>
<p>A GraphQL API with a REST compatibility layer. Every API call needs <code>Authorization: Bearer &lt;key&gt;</code>;
make a sandbox key with <code>${escape(key)}</code>.</p>
<ul>
${items}
</ul>
</body></html>
`);
    return;
  }
  res.json({
    name: 'MSP administration platform',
    authorization: `Bearer <key> on every API call; a sandbox key: ${key}`,
    links: Object.fromEntries(Object.entries(HOME_LINKS).map(([name, link]) => [name, link.path])),
  });
}
