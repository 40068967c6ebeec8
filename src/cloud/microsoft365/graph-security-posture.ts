import type { SecureScore, SecureScoreControlProfile } from '@microsoft/microsoft-graph-types';
import type { CloudPages } from '../pages.js';
import type {
  CloudScoreCategory,
  CloudSecureScores,
  CloudSecurityControlRecord,
  SecurityPostureProvider,
} from '../security-posture.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { applyControlOnGraph, GRAPH_APPLIED_CONTROLS } from './graph-control-apply.js';
import { unsupportedCall } from './graph-unsupported.js';

/**
 * Secure Score's controls (Graph's control profile ids) behind the recommendations of our catalog
 * (src/recommendations/recommendation.catalog.ts); a recommendation is met when every control of it the
 * tenant has is met. Only controls whose meaning is the recommendation's are listed (MFARegistrationV2 counts
 * users registered for MFA, not required to use it: not mfa-all-users); a recommendation without one stays
 * unknown for a Microsoft 365 tenant rather than guessed.
 */
export const SECURE_SCORE_CONTROLS: Readonly<Record<string, readonly string[]>> = {
  'mfa-admin-roles': ['AdminMFAV2'],
  'block-legacy-authentication': ['BlockLegacyAuthentication'],
  'dlp-policies': ['dlp_datalossprevention'],
  'safe-links': ['mdo_safelinksforemail', 'mdo_safelinksforOfficeApps'],
  'unified-audit-log': ['mip_search_auditlog'],
  'mailbox-auditing': ['exo_mailboxaudit'],
};

const RECOMMENDATION_OF = new Map(
  Object.entries(SECURE_SCORE_CONTROLS).flatMap(([recommendation, profiles]) =>
    profiles.map((profile) => [profile, recommendation] as const),
  ),
);

/**
 * Secure Score's control categories (`controlCategory`) as ours: Microsoft's "Apps" are the email and
 * collaboration apps (Exchange Online, Defender for Office 365, SharePoint, Teams). Controls of a category not
 * listed (Infrastructure) count in the total only: no category of ours has their meaning.
 */
export const SECURE_SCORE_CATEGORIES: Readonly<Record<string, CloudScoreCategory>> = {
  Identity: 'identityAndAccess',
  Data: 'dataProtection',
  Device: 'deviceSecurity',
  Apps: 'emailSecurity',
};

/** Graph keeps 90 days of scores (learn.microsoft.com, "List secureScores"). */
export const MAX_SECURE_SCORE_DAYS = 90;
/** Microsoft compares with all tenants, similar seats and industries: a few bases; more are cut (list-bounds.ts). */
export const MAX_COMPARATIVE_SCORES = 10;

/**
 * A tenant's security controls from Secure Score on Graph v1.0 (application permission
 * SecurityEvents.Read.All): the control profiles (`GET /security/secureScoreControlProfiles`, every page) give
 * each control's maximum, the latest daily score (`GET /security/secureScores?$top=1`) what the tenant has of
 * it; a control is met when it has its maximum. The score itself and its history are Microsoft's
 * (`GET /security/secureScores?$top=N`). Applying what Graph cannot change and information barriers answer
 * Unsupported naming the capability.
 */
export function graphSecurityPosture(graph: GraphTenantClient): SecurityPostureProvider {
  // The profiles feed both the controls and the score's categories: read once per client (one per tenant for a
  // request or a job run, so a sync reads them once); a failed read is not kept.
  let profiles: Promise<SecureScoreControlProfile[]> | undefined;
  const readProfiles = () => {
    profiles ??= graph
      .all<SecureScoreControlProfile>('/security/secureScoreControlProfiles')
      .catch((error) => {
        profiles = undefined;
        throw error;
      });
    return profiles;
  };
  return {
    listSecurityControls: () => securityControls(graph, readProfiles),
    readSecureScores: (days) => secureScores(graph, readProfiles, days),
    previewSecurityControl: (controlId) => applyControlOnGraph(graph, controlId, true),
    applySecurityControl: (controlId) => applyControlOnGraph(graph, controlId, false),
    applyInformationBarriers: () => unsupportedCall('informationBarriers'),
  };
}

function securityControls(
  graph: GraphTenantClient,
  readProfiles: () => Promise<SecureScoreControlProfile[]>,
): CloudPages<CloudSecurityControlRecord> {
  return {
    async *[Symbol.asyncIterator]() {
      const maxima = new Map<string, number>();
      for (const profile of await readProfiles())
        if (profile.id && RECOMMENDATION_OF.has(profile.id) && !profile.deprecated)
          maxima.set(profile.id, profile.maxScore ?? 0);
      // Graph keeps one score a day, newest first: the first is today's.
      const latest = await graph.get<{ value?: SecureScore[] }>('/security/secureScores', {
        query: { $top: 1 },
      });
      const scores = new Map(
        (latest.value?.[0]?.controlScores ?? []).map((control) => [control.controlName, control.score ?? 0]),
      );
      const met = new Map<string, boolean>();
      for (const [profileId, maxScore] of maxima) {
        const recommendation = RECOMMENDATION_OF.get(profileId)!;
        const profileMet = maxScore > 0 && (scores.get(profileId) ?? 0) >= maxScore;
        met.set(recommendation, (met.get(recommendation) ?? true) && profileMet);
      }
      yield [...met].map(([controlId, compliant]) => ({
        controlId,
        compliant,
        applySupported: controlId in GRAPH_APPLIED_CONTROLS,
      }));
    },
  };
}

/**
 * Microsoft's Secure Score of the tenant: `GET /security/secureScores?$top=N` (one entry a day, newest first,
 * `currentScore` of `maxScore` on Microsoft's points scale), the newest day's points by category (its
 * `controlScores`, with each category's maximum from the control profiles) and its comparative averages.
 */
async function secureScores(
  graph: GraphTenantClient,
  readProfiles: () => Promise<SecureScoreControlProfile[]>,
  days: number,
): Promise<CloudSecureScores> {
  const top = Math.min(Math.max(Math.trunc(days), 1), MAX_SECURE_SCORE_DAYS);
  const [list, profiles] = await Promise.all([
    graph.get<{ value?: SecureScore[] }>('/security/secureScores', { query: { $top: top } }),
    readProfiles(),
  ]);
  const entries = (list.value ?? []).slice(0, top);
  const byCategory: CloudSecureScores['byCategory'] = {
    identityAndAccess: { score: 0, maxScore: 0 },
    dataProtection: { score: 0, maxScore: 0 },
    emailSecurity: { score: 0, maxScore: 0 },
    deviceSecurity: { score: 0, maxScore: 0 },
    threatProtection: { score: 0, maxScore: 0 },
    auditAndCompliance: { score: 0, maxScore: 0 },
  };
  const newest = entries[0];
  if (newest) {
    for (const profile of profiles) {
      const category = SECURE_SCORE_CATEGORIES[profile.controlCategory ?? ''];
      if (category && !profile.deprecated) byCategory[category].maxScore += profile.maxScore ?? 0;
    }
    for (const control of newest.controlScores ?? []) {
      const category = SECURE_SCORE_CATEGORIES[control.controlCategory ?? ''];
      if (category) byCategory[category].score += control.score ?? 0;
    }
  }
  // One entry a day; should Graph ever give two for a day, the newer (first) one stands.
  const daysSeen = new Map<string, CloudSecureScores['days'][number]>();
  for (const entry of entries) {
    if (!entry.createdDateTime) continue;
    const day = new Date(entry.createdDateTime).toISOString().slice(0, 10);
    if (!daysSeen.has(day))
      daysSeen.set(day, { day, score: entry.currentScore ?? 0, maxScore: entry.maxScore ?? 0 });
  }
  return {
    days: [...daysSeen.values()],
    byCategory,
    averages: (newest?.averageComparativeScores ?? [])
      .flatMap((average) =>
        average.basis && typeof average.averageScore === 'number'
          ? [{ basis: average.basis, averageScore: average.averageScore }]
          : [],
      )
      .slice(0, MAX_COMPARATIVE_SCORES),
  };
}
