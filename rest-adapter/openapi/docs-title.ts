/**
 * The /docs page's title: in a module of its own (serve.ts re-exports it), so a browser test that checks it
 * does not load Express, graphql and the OpenAPI builder for one string.
 */
export const DOCS_TITLE = 'MSP administration platform — API reference';
