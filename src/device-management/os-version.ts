/**
 * OS versions compared as versions, not strings (docs/devices.md "Version comparison"): dot-separated
 * numeric parts compared one by one as numbers, a missing part counting as 0, so `10.0.19045` < `10.0.22631`,
 * `17.4` < `17.10` and `14` = `14.0`. What a cloud reports may carry text after the numbers
 * (`17.4.1 (21E236)`, `14 beta`): only the leading numeric parts count.
 */

/** What a policy's minimum or maximum OS version must look like: 1 to 4 numeric parts. */
export const POLICY_VERSION_FORMAT = /^\d{1,9}(\.\d{1,9}){0,3}$/;

/** The numeric parts of a version (`10.0.19045` → [10, 0, 19045]); [] when it starts with no number. */
export function versionParts(version: string): number[] {
  const leading = /^\s*v?(\d+(?:\.\d+)*)/i.exec(version);
  return leading ? leading[1].split('.').map(Number) : [];
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const left = versionParts(a);
  const right = versionParts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** Whether `version` lies inside [min, max] (either bound optional, both inclusive). */
export function versionWithin(version: string, min: string | null, max: string | null): boolean {
  if (min !== null && compareVersions(version, min) < 0) return false;
  if (max !== null && compareVersions(version, max) > 0) return false;
  return true;
}
