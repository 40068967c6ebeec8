import type { SecureScore, SecureScoreControlProfile } from '@microsoft/microsoft-graph-types';
import type { CloudPages } from '../pages.js';
import type { CloudSecurityControlRecord, SecurityPostureProvider } from '../security-posture.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { unsupportedCall } from './graph-unsupported.js';

/**
 * Secure Score's controls (Graph's control profile ids) behind the recommendations of our catalog
 * (src/recommendations/recommendation.catalog.ts). Only controls whose meaning is the recommendation's are
 * listed; a recommendation without one stays unknown for a Microsoft 365 tenant rather than guessed.
 */
export const SECURE_SCORE_CONTROLS: Readonly<Record<string, string>> = {
  AdminMFAV2: 'mfa-admin-roles',
  MFARegistrationV2: 'mfa-all-users',
  BlockLegacyAuthentication: 'block-legacy-authentication',
  dlp_datalossprevention: 'dlp-policies',
  mdo_safelinksforemail: 'safe-links',
  mip_search_auditlog: 'unified-audit-log',
  exo_mailboxaudit: 'mailbox-auditing',
};

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
    previewSecurityControl: () => unsupportedCall('securityControlApply'),
    applySecurityControl: () => unsupportedCall('securityControlApply'),
    applyInformationBarriers: () => unsupportedCall('informationBarriers'),
  };
}

function securityControls(graph: GraphTenantClient): CloudPages<CloudSecurityControlRecord> {
  return {
    async *[Symbol.asyncIterator]() {
      const maxima = new Map<string, number>();
      for await (const page of graph.pages<SecureScoreControlProfile>('/security/secureScoreControlProfiles'))
        for (const profile of page.value)
          if (profile.id && SECURE_SCORE_CONTROLS[profile.id] && !profile.deprecated)
            maxima.set(profile.id, profile.maxScore ?? 0);
      // Graph keeps one score a day, newest first: the first is today's.
      const latest = await graph.get<{ value?: SecureScore[] }>('/security/secureScores', {
        query: { $top: 1 },
      });
      const scores = new Map(
        (latest.value?.[0]?.controlScores ?? []).map((control) => [control.controlName, control.score ?? 0]),
      );
      yield [...maxima].map(([profileId, maxScore]) => ({
        controlId: SECURE_SCORE_CONTROLS[profileId],
        compliant: maxScore > 0 && (scores.get(profileId) ?? 0) >= maxScore,
        // Applying is not implemented on Graph yet (applySecurityControl answers Unsupported).
        applySupported: false,
      }));
    },
  };
}
