import { readFileSync } from 'node:fs';
import { PRODUCT_ENV, PRODUCT_NODE_FLAGS, SERVER_COMMAND } from '../../bench/config.js';

/**
 * The bench must measure the server as `npm start` runs it: the same V8 flags and the same environment set before
 * Node starts (docs/performance.md "Memory"). The bench reads them from `serve`; `start` must say the same.
 */
describe('the server’s Node flags', () => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

  it.each(['start', 'serve'])(
    'npm run %s starts the server with the bench’s flags and environment',
    (script) => {
      const command = SERVER_COMMAND.exec(scripts[script]);
      expect(command).not.toBeNull();
      expect(command?.[2].trim().split(/\s+/)).toEqual(PRODUCT_NODE_FLAGS);
      const environment = Object.fromEntries(
        (command?.[1] ?? '')
          .trim()
          .split(/\s+/)
          .filter((pair) => pair !== '')
          .map((pair) => pair.split('=')),
      );
      expect(environment).toEqual(PRODUCT_ENV);
    },
  );
});
