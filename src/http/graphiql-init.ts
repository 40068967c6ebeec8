/**
 * The browser script of /graphiql (served as /graphiql/assets/init.js so the page's CSP allows no inline
 * script). Queries and mutations go over HTTP with the header editor's headers; subscriptions over
 * graphql-ws, the same headers becoming the connection_init payload (docs/subscriptions.md). Headers are
 * not persisted: an API key typed here stays in this tab.
 */
export const GRAPHIQL_INIT_SCRIPT = `'use strict';
(function () {
  var httpUrl = location.origin + '/graphql';
  var wsUrl = httpUrl.replace(/^http/, 'ws');
  var httpFetcher = GraphiQL.createFetcher({ url: httpUrl });

  function operationOf(params, opts) {
    var definitions = (opts && opts.documentAST && opts.documentAST.definitions) || [];
    var operations = definitions.filter(function (d) { return d.kind === 'OperationDefinition'; });
    var named = operations.find(function (d) {
      return !params.operationName || (d.name && d.name.value === params.operationName);
    });
    if (named || operations.length !== 1) return named;
    // GraphiQL updates the operation name after a pause in typing: executing at once sends the previous
    // document's name. With one operation in the editor, that operation is the one meant.
    params.operationName = operations[0].name ? operations[0].name.value : undefined;
    return operations[0];
  }

  function subscribe(params, headers) {
    var client = graphqlWs.createClient({ url: wsUrl, connectionParams: headers, retryAttempts: 0 });
    var iterator = client.iterate({
      query: params.query,
      variables: params.variables,
      operationName: params.operationName || undefined,
    });
    var iterable = {};
    iterable[Symbol.asyncIterator] = function () {
      return {
        next: function () { return iterator.next(); },
        return: function () {
          return Promise.resolve(iterator.return && iterator.return()).then(function () {
            client.dispose();
            return { done: true, value: undefined };
          });
        },
      };
    };
    return iterable;
  }

  var NO_KEY =
    'No API key yet, so nothing was sent. Put it in the Headers tab below: ' +
    '{"Authorization": "Bearer svc_sk_test_..."}. Get one with: ' +
    'npm run -s cli -- api-keys create --org demo --level admin --env test';

  function hasKey(headers) {
    var name = Object.keys(headers || {}).find(function (h) { return h.toLowerCase() === 'authorization'; });
    return !!name && /^Bearer\\s+\\S+/i.test(String(headers[name]).trim());
  }

  function fetcher(params, opts) {
    // Nothing runs until a key is there (the schema fetch included): the page explains instead of showing
    // the API's UNAUTHORIZED (issue #33 item 7).
    if (!hasKey(opts && opts.headers)) return Promise.resolve({ errors: [{ message: NO_KEY }] });
    var operation = operationOf(params, opts);
    if (operation && operation.operation === 'subscription') return subscribe(params, (opts && opts.headers) || {});
    return httpFetcher(params, opts);
  }

  // Short lines: the editor is narrow, and a long first line was cut off at the edge.
  var defaultQuery = [
    '# 1. Get an API key in a terminal:',
    '#    npm run -s cli -- api-keys create \\\\',
    '#      --org demo --level admin --env test',
    '# 2. Paste it into the Headers tab below:',
    '#    {"Authorization": "Bearer svc_sk_test_..."}',
    '# 3. Run this query with the play button.',
    '# Nothing is sent to the server before that.',
    'query Tenants {',
    '  tenants(limit: 5) {',
    '    items { id name domain }',
    '    pageInfo { page limit total }',
    '  }',
    '}',
    '',
  ].join('\\n');

  /** The Authorization value of the header editor's text when it holds a key, else null. */
  function keyOf(text) {
    var headers;
    try {
      headers = JSON.parse(text || '{}');
    } catch (error) {
      return null;
    }
    if (!headers || typeof headers !== 'object' || !hasKey(headers)) return null;
    var name = Object.keys(headers).find(function (h) { return h.toLowerCase() === 'authorization'; });
    return String(headers[name]).trim();
  }

  // GraphiQL fetches the schema when it mounts (refused here: no key yet) and again whenever its fetcher
  // changes. A key typed or pasted into the header editor (after a short pause, so typing is not a request
  // per keystroke) therefore gets a new fetcher, and the schema (docs, completion) arrives without a reload.
  function Page() {
    var state = React.useState(null);
    var key = state[0];
    var setKey = state[1];
    var pause = React.useRef(null);
    var keyedFetcher = React.useMemo(
      function () { return function (params, opts) { return fetcher(params, opts); }; },
      [key],
    );
    function onEditHeaders(text) {
      clearTimeout(pause.current);
      pause.current = setTimeout(function () { setKey(keyOf(text)); }, 400);
    }
    return React.createElement(GraphiQL, {
      fetcher: keyedFetcher,
      onEditHeaders: onEditHeaders,
      defaultQuery: defaultQuery,
      defaultHeaders: '{\\n  "Authorization": "Bearer "\\n}',
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
      isHeadersEditorEnabled: true,
    });
  }

  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(Page));
})();
`;
