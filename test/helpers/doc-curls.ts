import { readdirSync } from 'node:fs';
import path from 'node:path';
import { shellBlocks } from './doc-shell.js';

/**
 * The curl examples of docs/*.md (issue #33 item 9): every `curl` in a ```sh block, with the method and path
 * it requests, so a test can hold the route table and the docs together and run some of them.
 */
export interface DocCurl {
  file: string;
  /** The whole command (continuation lines joined), from `curl` to the end of the command. */
  command: string;
  /** Its words, quotes removed (`$VARIABLES` left to expand): `runnable` makes a command of them again. */
  argv: string[];
  method: string;
  /** The path after $BASE, without its query string, e.g. /api/security/alerts/$ALERT. */
  path: string;
  /** Shell variables the command uses ($KEY, $TENANT...). */
  variables: string[];
}

/** Splits a command line into words the way the shell would for these examples (quotes kept out). */
function words(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g))
    found.push(match[1] ?? match[2] ?? match[3]);
  return found;
}

const ENDS = new Set(['|', ';', '&&', '||', '#', ')']);

function parse(file: string, command: string): DocCurl | null {
  const all = words(command);
  const end = all.findIndex((word, index) => index > 0 && (ENDS.has(word) || word.startsWith('#')));
  const args = end === -1 ? all : all.slice(0, end);
  const url = args.find((word) => /\$\{?BASE\}?/.test(word));
  if (!url) return null;
  const explicit = args.findIndex((word) => word === '-X' || word === '--request');
  const sendsData = args.some((word) =>
    /^(-d|--data(-binary|-raw|-urlencode)?|--json|-F|--form)$/.test(word),
  );
  const method =
    explicit >= 0 ? args[explicit + 1].toUpperCase() : args.includes('-G') || !sendsData ? 'GET' : 'POST';
  const pathPart = url
    .replace(/^.*\$\{?BASE\}?/, '')
    .replace(/\)+$/, '')
    .split('?')[0];
  return {
    file,
    command: args.join(' '),
    argv: args,
    method,
    path: pathPart,
    variables: [...new Set([...command.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g)].map((match) => match[1]))],
  };
}

/** Every curl example of the Markdown files in `directory` (docs/ by default). */
export function docCurls(directory = 'docs'): DocCurl[] {
  const curls: DocCurl[] = [];
  for (const name of readdirSync(directory)
    .filter((entry) => entry.endsWith('.md'))
    .sort()) {
    const file = path.join(directory, name);
    for (const block of shellBlocks(file)) {
      const lines = block.replace(/\\\n\s*/g, ' ').split('\n');
      for (const line of lines)
        for (const match of line.matchAll(/(?:^|[\s($])curl\s/g)) {
          const curl = parse(file, line.slice(match.index + match[0].indexOf('curl')));
          if (curl) curls.push(curl);
        }
    }
  }
  return curls;
}

/**
 * How well a documented path names a route's path (both with their mount, e.g. /api/security/alerts/:id):
 * the number of literal segments that agree, or -1 when it is not that route. A route parameter takes a shell
 * variable ($ALERT) or a literal value (slack); the route with the most literal agreement is the one meant, so
 * /api/security/alerts/statistics is that route, not /api/security/alerts/:id.
 */
export function matchScore(routePath: string, docPath: string): number {
  const route = routePath.split('/');
  const doc = docPath.split('/');
  if (route.length !== doc.length) return -1;
  let score = 0;
  for (let index = 0; index < route.length; index++) {
    if (route[index].startsWith(':')) continue;
    if (route[index] !== doc[index]) return -1;
    score++;
  }
  return score;
}

/** The example as a command line again: each word in double quotes, so only its `$VARIABLES` expand. */
export function runnable(curl: DocCurl): string {
  return curl.argv.map((word) => `"${word.replace(/(["\\`])/g, '\\$1')}"`).join(' ');
}
