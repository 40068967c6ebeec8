import { groupedNumber } from '../../src/core/grouped-number.js';

describe('groupedNumber', () => {
  it("writes an integer as toLocaleString('en-US') does", () => {
    const values = [0, 1, 12, 999, 1_000, 9_999, 10_000, 100_000, 999_999, 1_000_000, 1_234_567_890];
    for (let value = 1; value < Number.MAX_SAFE_INTEGER / 7; value = value * 7 + 3) values.push(value);
    for (const value of [
      ...values,
      ...values.filter((value) => value !== 0).map((value) => -value),
      Number.MAX_SAFE_INTEGER,
    ])
      expect(groupedNumber(value)).toBe(value.toLocaleString('en-US'));
  });

  it('refuses what is not a safe integer', () => {
    expect(() => groupedNumber(1.5)).toThrow(RangeError);
    expect(() => groupedNumber(Number.NaN)).toThrow(RangeError);
  });
});
