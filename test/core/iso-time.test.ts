import { epochMsOfUtcTimestampText, isoString } from '../../src/core/iso-time.js';

/** core/iso-time.ts must give exactly what Date gives: compared over a spread of instants and edge cases. */
const DAY = 86_400_000;

/** A deterministic spread of instants from year 1 to 9999 (and the days around month and leap-year ends). */
function sampleInstants(): number[] {
  const instants: number[] = [];
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const first = Date.UTC(1, 0, 1) - 3.2e13; // a few hundred years before year 1 as well
  const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  for (let i = 0; i < 20_000; i++) instants.push(Math.floor(first + next() * (last - first)));
  for (const year of [1, 4, 100, 400, 1900, 1969, 1970, 2000, 2024, 2025, 2100, 9999]) {
    for (const month of [0, 1, 2, 11]) {
      const start = Date.UTC(2000, month, 1);
      const date = new Date(start);
      date.setUTCFullYear(year);
      for (const delta of [-DAY - 1, -1, 0, 1, DAY - 1, 27 * DAY, 28 * DAY, 29 * DAY])
        instants.push(date.getTime() + delta);
    }
  }
  return instants;
}

/**
 * The instants whose [actual, expected] pair differs (`Object.is`, as `toBe`), each with both values: one
 * `expect` over the whole spread instead of one per instant (some 50,000 `expect` calls were most of the file's
 * CPU), and a failure still names every instant that differs.
 */
function mismatches<T>(
  instants: number[],
  pair: (instant: number) => [actual: T, expected: T],
): { instant: number; actual: T; expected: T }[] {
  const found: { instant: number; actual: T; expected: T }[] = [];
  for (const instant of instants) {
    const [actual, expected] = pair(instant);
    if (!Object.is(actual, expected)) found.push({ instant, actual, expected });
  }
  return found;
}

/** PostgreSQL's text of an instant in a UTC session: microseconds only when not zero, trailing zeros dropped. */
function postgresText(epochMs: number, micros = ''): string {
  const iso = new Date(epochMs).toISOString();
  const fraction = `${iso.slice(20, 23)}${micros}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

describe('isoString', () => {
  it('equals Date#toISOString', () => {
    expect(
      mismatches(sampleInstants(), (instant) => [
        isoString(new Date(instant)),
        new Date(instant).toISOString(),
      ]),
    ).toEqual([]);
  });

  it('throws for an invalid date, as toISOString does', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('epochMsOfUtcTimestampText', () => {
  it('reads what Date reads from the ISO form, years 1000 to 9999', () => {
    const inRange = sampleInstants().filter((instant) => {
      const year = new Date(instant).getUTCFullYear();
      return year >= 1000 && year <= 9999;
    });
    expect(inRange.length).toBeGreaterThan(10_000);
    expect(
      mismatches(inRange, (instant) => [epochMsOfUtcTimestampText(postgresText(instant)), instant]),
    ).toEqual([]);
    expect(
      mismatches(inRange, (instant) => [epochMsOfUtcTimestampText(postgresText(instant, '456')), instant]),
    ).toEqual([]);
  });

  it.each([
    ['2026-11-01 12:06:00+00', '2026-11-01T12:06:00.000Z'],
    ['2026-11-01 12:06:00.5+00', '2026-11-01T12:06:00.500Z'],
    ['2026-11-01 12:06:00.123456+00', '2026-11-01T12:06:00.123Z'],
    ['2024-02-29 23:59:59.999+00', '2024-02-29T23:59:59.999Z'],
  ])('%s is %s', (text, iso) => {
    expect(new Date(epochMsOfUtcTimestampText(text)).toISOString()).toBe(iso);
  });

  it.each([
    '2026-11-01 17:36:00.25+05:30',
    '2026-11-01 04:06:00-08',
    '2025-02-29 00:00:00+00',
    '2026-04-31 00:00:00+00',
    '2026-13-01 00:00:00+00',
    '2026-11-01 24:00:00+00',
    '2026-11-01 12:06:00.+00',
    '2026-11-01 12:06:00.12x+00',
    '2026-11-01T12:06:00+00',
    '12026-11-01 12:06:00+00',
    '0044-03-15 12:00:00+00 BC',
    'infinity',
    '',
  ])('leaves %j to Date (NaN)', (text) => {
    expect(epochMsOfUtcTimestampText(text)).toBeNaN();
  });
});
