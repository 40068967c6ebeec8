import type { DefenderTenantClient } from './defender-client.js';

/**
 * The open security recommendations of a tenant's machines, from Defender for Endpoint's vulnerability
 * management (learn.microsoft.com "List all recommendations", "List devices by recommendation"; permission
 * SecurityRecommendation.Read.All): `GET /api/recommendations` once, then `GET
 * /api/recommendations/{id}/machineReferences` for each active one that is one of our catalog's
 * (src/devices/device-recommendations.ts) and exposes machines. A sync therefore costs a handful of calls
 * whatever the number of machines, where `GET /api/machines/{id}/recommendations` would cost one per machine
 * against Defender's 100 calls a minute.
 */
export interface DefenderRecommendation {
  id: string;
  recommendationName: string | null;
  productName: string | null;
  status: string | null;
  exposedMachinesCount: number | null;
}

interface MachineReference {
  id: string;
}

/** Our catalog's code for Defender's recommendation: software updates by id, configurations by name. */
export function recommendationCodeOf(recommendation: DefenderRecommendation): string | null {
  const id = recommendation.id.toLowerCase();
  if (/^va-_-(microsoft-_-windows|apple-_-macos|apple-_-ios|google-_-android)/.test(id)) return 'update-os';
  if (id === 'va-_-google-_-chrome') return 'update-chrome';
  if (id.startsWith('va-_-openssl-_-openssl')) return 'update-openssl';
  const name = (recommendation.recommendationName ?? '').toLowerCase();
  if (name.includes('bitlocker')) return 'enable-bitlocker';
  if (name.includes('filevault')) return 'enable-filevault';
  if (name.includes('tamper protection')) return 'turn-on-tamper-protection';
  if (name.includes('smbv1')) return 'disable-smbv1';
  return null;
}

/** Our recommendation codes open on each Defender machine (by machine id), sorted. */
export async function openRecommendationsByMachine(
  defender: DefenderTenantClient,
): Promise<Map<string, string[]>> {
  const byMachine = new Map<string, Set<string>>();
  const wanted: Array<{ id: string; code: string }> = [];
  for await (const page of defender.pages<DefenderRecommendation>('/api/recommendations'))
    for (const recommendation of page) {
      const code = recommendationCodeOf(recommendation);
      if (code && recommendation.status === 'Active' && (recommendation.exposedMachinesCount ?? 0) > 0)
        wanted.push({ id: recommendation.id, code });
    }
  for (const { id, code } of wanted)
    for await (const page of defender.pages<MachineReference>(
      `/api/recommendations/${encodeURIComponent(id)}/machineReferences`,
    ))
      for (const machine of page) {
        const codes = byMachine.get(machine.id) ?? new Set<string>();
        codes.add(code);
        byMachine.set(machine.id, codes);
      }
  return new Map([...byMachine].map(([machineId, codes]) => [machineId, [...codes].sort()]));
}
