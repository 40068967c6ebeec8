/**
 * Instants between PostgreSQL's timestamp text, Date and ISO 8601, by integer arithmetic. V8's own paths are slow
 * for what a list does per row: `new Date(isoText)` ~0.8 µs and `Date#toISOString` ~1.2 µs on the bench machine,
 * against ~0.1 µs here; a page of 25 users has 50 timestamps both ways (issue #11). Anything outside the plain
 * case (years before 1 or after 9999, an offset other than +00, a malformed text) takes V8's path, so results are
 * always those of `new Date(text)` and `toISOString()` (test/core/iso-time.test.ts compares them).
 */

const MS_PER_DAY = 86_400_000;
const ZERO = 48;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index++) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Epoch milliseconds of PostgreSQL's text for a timestamptz in a UTC session, "YYYY-MM-DD HH:MM:SS[.f…]+00"
 * (fraction truncated to milliseconds, as Date does); NaN when the text is not of that form.
 */
export function epochMsOfUtcTimestampText(text: string): number {
  const length = text.length;
  if (length < 22 || text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':')
    return Number.NaN;
  if (text[16] !== ':' || !text.endsWith('+00')) return Number.NaN;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hours = digits(text, 11, 2);
  const minutes = digits(text, 14, 2);
  const seconds = digits(text, 17, 2);
  let millis = 0;
  const fractionEnd = length - 3;
  if (fractionEnd > 19) {
    if (text[19] !== '.' || fractionEnd === 20) return Number.NaN;
    const fractionDigits = Math.min(fractionEnd - 20, 3);
    millis = digits(text, 20, fractionDigits) * 10 ** (3 - fractionDigits);
    if (fractionEnd - 20 > 3 && Number.isNaN(digits(text, 23, fractionEnd - 23))) return Number.NaN;
  } else if (fractionEnd !== 19) return Number.NaN;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hours > 23 || minutes > 59 || seconds > 59) return Number.NaN;
  return (
    daysFromCivil(year, month, day) * MS_PER_DAY + ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
  );
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The character code of `value`'s digit of weight `unit` (1, 10, 100, 1000). */
const digit = (value: number, unit: number) => ZERO + (Math.floor(value / unit) % 10);

/** `date.toISOString()`, by arithmetic for years 1970…9999 (V8's for the rest and for invalid dates). */
export function isoString(date: Date): string {
  const time = date.getTime();
  if (!(time >= 0 && time < 253_402_300_800_000)) return date.toISOString();
  const days = Math.floor(time / MS_PER_DAY);
  const msOfDay = time - days * MS_PER_DAY;
  // H. Hinnant's civil_from_days.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const seconds = Math.floor(msOfDay / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const second = seconds % 60;
  const millis = msOfDay % 1000;
  // One string of 24 character codes: a text built by concatenating padded fields allocated ~400 bytes of
  // intermediate strings per timestamp, 40 this way (50 timestamps per page of users; issue #31, allocations).
  // Codes 45 '-', 84 'T', 58 ':', 46 '.', 90 'Z'; one line per part of the text.
  // prettier-ignore
  return String.fromCharCode(
    digit(year, 1000), digit(year, 100), digit(year, 10), digit(year, 1),
    45, digit(month, 10), digit(month, 1), 45, digit(day, 10), digit(day, 1),
    84, digit(hours, 10), digit(hours, 1), 58, digit(minutes, 10), digit(minutes, 1),
    58, digit(second, 10), digit(second, 1), 46, digit(millis, 100), digit(millis, 10), digit(millis, 1), 90,
  );
}

/**
 * MikroORM's driver hands timestamps over as PostgreSQL text ("2026-11-01 12:06:00.5+00"). Sessions run in
 * UTC, so the usual value ends in "+00": that case is computed by arithmetic above (several times
 * faster than Date's parser; a hot list parses a hundred timestamps per page), any other offset goes to Date.
 */
export function parseTimestamp(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const epochMs = epochMsOfUtcTimestampText(value);
  if (!Number.isNaN(epochMs)) return new Date(epochMs);
  // PostgreSQL writes offsets as "+05" or "+05:30", ISO wants "+05:00"; a bare day ("2026-11-01", a `date`
  // column) has no offset to complete, and Date reads it as UTC midnight.
  const iso = value.replace(' ', 'T');
  return new Date(iso.includes('T') ? iso.replace(/([+-]\d\d)$/, '$1:00') : iso);
}

/**
 * A timestamp selected as epoch milliseconds (`(extract(epoch from column) * 1000)::float8`, which pg may hand over
 * as text) back to a Date; null stays null.
 */
export function dateOfEpochMs(ms: number | string | null): Date | null {
  return ms === null ? null : new Date(Number(ms));
}
