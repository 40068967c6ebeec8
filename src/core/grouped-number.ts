/**
 * An integer with its thousands grouped by commas, as `toLocaleString('en-US')` writes it ("10,000"), for the
 * schema's descriptions. `toLocaleString` would load ICU's number-format data into the process at start-up:
 * 4.4 MiB resident for two descriptions (docs/benchmarks.md, "sixth round, memory").
 */
export function groupedNumber(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`groupedNumber takes a safe integer, got ${value}`);
  const digits = String(Math.abs(value));
  let text = digits.slice(0, digits.length % 3 || 3);
  for (let index = text.length; index < digits.length; index += 3)
    text += `,${digits.slice(index, index + 3)}`;
  return value < 0 ? `-${text}` : text;
}
