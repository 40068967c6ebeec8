import 'reflect-metadata';
import { parseTimestamp } from '../../src/core/iso-time.js';

/** Lean pages parse PostgreSQL's timestamp text themselves (src/core/lean-read.ts): same instants as ISO. */
describe('parseTimestamp', () => {
  it.each([
    ['2026-11-01 12:06:00+00', '2026-11-01T12:06:00.000Z'],
    ['2026-11-01 12:06:00.5+00', '2026-11-01T12:06:00.500Z'],
    ['2026-11-01 12:06:00.123456+00', '2026-11-01T12:06:00.123Z'],
    ['2026-11-01 17:36:00.25+05:30', '2026-11-01T12:06:00.250Z'],
    ['2026-11-01 04:06:00-08', '2026-11-01T12:06:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect((parseTimestamp(text) as Date).toISOString()).toBe(iso);
  });

  it('leaves null and values that are already dates alone', () => {
    const date = new Date();
    expect(parseTimestamp(null)).toBeNull();
    expect(parseTimestamp(date)).toBe(date);
  });
});
