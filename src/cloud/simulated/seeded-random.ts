/**
 * Small seeded draws for the simulated cloud's generators: a PRNG (mulberry32) separate from faker, so that
 * a generator drawing from it moves no other draw of a tenant, and the helpers that draw from it.
 */
export type Random = () => number;

/** A small seeded PRNG (mulberry32). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
export const between = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

/** A version-4-shaped UUID of 32 draws. */
export function uuidOf(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

export function weighted<T extends { weight: number }>(random: Random, items: readonly T[]): T {
  let draw = random() * items.reduce((sum, item) => sum + item.weight, 0);
  for (const item of items) {
    draw -= item.weight;
    if (draw < 0) return item;
  }
  return items[items.length - 1];
}
