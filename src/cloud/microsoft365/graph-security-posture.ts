import type { SecureScore, SecureScoreControlProfile } from '@microsoft/microsoft-graph-types';
import type { CloudPages } from '../pages.js';
import type { CloudSecurityControlRecord, SecurityPostureProvider } from '../security-posture.provider.js';
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
 * A tenant's security controls from Secure Score on Graph v1.0 (application permission
 * SecurityEvents.Read.All): the control profiles (`GET /security/secureScoreControlProfiles`, every page) give
 * each control's maximum, the latest daily score (`GET /security/secureScores?$top=1`) what the tenant has of
 * it; a control is met when it has its maximum. Applying a control and information barriers are not on Graph
 * in this slice: they answer Unsupported naming the capability.
 */
export function graphSecurityPosture(graph: GraphTenantClient): SecurityPostureProvider {
  return {
    listSecurityControls: () => securityControls(graph),
    previewSecurityControl: (controlId) => applyControlOnGraph(graph, controlId, true),
    applySecurityControl: (controlId) => applyControlOnGraph(graph, controlId, false),
    applyInformationBarriers: () => unsupportedCall('informationBarriers'),
  };
}

function securityControls(graph: GraphTenantClient): CloudPages<CloudSecurityControlRecord> {
  return {
    async *[Symbol.asyncIterator]() {
      const maxima = new Map<string, number>();
      for await (const page of graph.pages<SecureScoreControlProfile>('/security/secureScoreControlProfiles'))
        for (const profile of page.value)
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
