/**
 * The query parser's fast path (src/http/query-string.ts) against Express's own extended parser (qs) over a
 * generated corpus: the same object (keys, order, values, prototype) for every input, and the fast path answering the
 * plain strings itself while anything unusual goes to qs.
 */
import { isDeepStrictEqual } from 'node:util';
import express from 'express';
import { plainQuery, withPlainQueryFastPath, type QueryParser } from '../../src/http/query-string.js';

function expressExtendedParser(): QueryParser {
  const app = express();
  app.set('query parser', 'extended');
  return app.get('query parser fn') as QueryParser;
}

const extended = expressExtendedParser();
const parse = withPlainQueryFastPath(extended);

/** A small deterministic PRNG (mulberry32): the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  'limit',
  'page',
  'cursor',
  'tenantId',
  'a',
  'b',
  'A',
  'x_y',
  'k-1',
  '0',
  '1',
  '25',
  '100',
  '-3',
  'true',
  '&',
  '&',
  '&',
  '=',
  '=',
  '=',
  '==',
  '[',
  ']',
  '[]',
  '[0]',
  '[a]',
  '%5B',
  '%5d',
  '%5D=',
  ']=',
  '%',
  '%2',
  '%ZZ',
  '%20',
  '%25',
  '%255D',
  '%26',
  '%3D',
  '%E2%9C%93',
  '%C3',
  '%C3%A9',
  '%ED%A0%80',
  '+',
  '.',
  'a.b',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'é',
  '\u{1F600}',
  '\ud800',
  '~',
  ',',
  ' ',
  '?',
  '#',
  ';',
  'utf8=%E2%9C%93',
  'utf8=%26%2310003%3B',
  '&#10003;',
  '2026-11-28T00:00:00.000Z',
  '2f1c5a0e-8a51-4c6b-9d1e-3f0b7f0a9c11',
];

function corpus(): string[] {
  const next = random(31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const cases = [
    '',
    'limit=25',
    'limit=25&page=2',
    'page=1&limit=100',
    'tenantId=2f1c5a0e-8a51-4c6b-9d1e-3f0b7f0a9c11&limit=10',
    'a',
    'a=',
    'a=&b=',
    '=a',
    '&',
    'a=1&',
    '&a=1',
    'a=1&&b=2',
    'a=1&a=2',
    'a[]=1',
    'a[0]=1&a[1]=2',
    'a[b]=c',
    'a=b]=c',
    'a=%5D=b',
    'a=%5d',
    'a%5B0%5D=1',
    'a=b=c',
    'a=%',
    'a=%zz',
    'a=%E2%9C%93',
    'a=+b',
    'a=b+c',
    '__proto__=x',
    '__proto__[x]=1',
    'constructor=1',
    'toString=1',
    'hasOwnProperty=1',
    'a.b=1',
    'utf8=%E2%9C%93',
    `a=${'x'.repeat(1100)}`,
    Array.from({ length: 600 }, (_, i) => `k${i}=${i}`).join('&'),
    Array.from({ length: 1200 }, (_, i) => `k${i}`).join('&'),
  ];
  for (let index = 0; index < 20_000; index++) {
    const length = 1 + Math.floor(next() * 10);
    let text = '';
    for (let token = 0; token < length; token++) text += pick(TOKENS);
    cases.push(text);
  }
  return cases;
}

describe('the query parser fast path', () => {
  it('gives what Express extended parser gives, for every input of the corpus', () => {
    let fast = 0;
    const differences: Array<{ text: string; ours: unknown; theirs: unknown }> = [];
    for (const text of corpus()) {
      const ours = parse(text);
      const theirs = extended(text);
      if (plainQuery(text) !== undefined) fast++;
      const same =
        JSON.stringify(ours) === JSON.stringify(theirs) &&
        Object.getPrototypeOf(ours) === Object.getPrototypeOf(theirs) &&
        JSON.stringify(Object.keys(ours)) === JSON.stringify(Object.keys(theirs));
      if (!same || !isDeepStrictEqual(ours, theirs)) differences.push({ text, ours, theirs });
    }
    expect(differences.slice(0, 5)).toEqual([]);
    // The corpus exercises both ways.
    expect(fast).toBeGreaterThan(1_000);
  });

  it('answers plain strings itself and sends the unusual ones to qs', () => {
    expect(plainQuery('limit=25')).toEqual({ limit: '25' });
    expect(plainQuery('limit=25&page=2')).toEqual({ limit: '25', page: '2' });
    expect(plainQuery('q=a%20b')).toEqual({ q: 'a b' });
    expect(plainQuery('flag')).toEqual({ flag: '' });
    expect(plainQuery(undefined)).toEqual({});
    for (const unusual of [
      'a[]=1',
      'a=1&a=2',
      'a=b+c',
      'a=%zz',
      'a=%5D',
      '__proto__=1',
      'constructor=1',
      'a=1&',
      '&a',
      'a.b=1',
      `a=${'x'.repeat(1100)}`,
    ])
      expect([unusual, plainQuery(unusual)]).toEqual([unusual, undefined]);
  });
});
