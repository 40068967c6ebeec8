import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeBackup } from './graph-fake-backup.js';
import type { FakeReply } from './graph-fake-login.js';

/**
 * "restorePoint: search" (v1.0): `{protectionUnitIds (at most 20), protectionTimePeriod {startDateTime,
 * endDateTime}, restorePointPreference latest | oldest}` → `{searchResponseId, searchResults: [{restorePoint}],
 * noResultProtectionUnitIds}`: at most five restore points, not paged.
 */
export function searchRestorePoints(backup: FakeBackup, call: GraphCall): FakeReply {
  const body = (call.body ?? {}) as {
    protectionUnitIds?: unknown;
    protectionTimePeriod?: { startDateTime?: string; endDateTime?: string };
    restorePointPreference?: string;
  };
  const ids = body.protectionUnitIds;
  const period = body.protectionTimePeriod;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20)
    return graphError(400, 'BadRequest', 'protectionUnitIds must hold 1 to 20 protection unit ids.');
  const start = Date.parse(period?.startDateTime ?? '');
  const end = Date.parse(period?.endDateTime ?? '');
  if (Number.isNaN(start) || Number.isNaN(end))
    return graphError(
      400,
      'BadRequest',
      'protectionTimePeriod with startDateTime and endDateTime is required.',
    );
  const oldest = body.restorePointPreference === 'oldest';
  const found = backup.restorePoints
    .filter((point) => {
      const at = Date.parse(point.protectionDateTime!);
      return ids.includes(point.unitId) && at >= start && at < end;
    })
    .sort((a, b) => (oldest ? 1 : -1) * a.protectionDateTime!.localeCompare(b.protectionDateTime!))
    .slice(0, 5);
  return {
    status: 200,
    body: {
      '@odata.context': '$metadata#microsoft.graph.restorePointSearchResponse',
      searchResponseId: `search-${Date.now()}`,
      searchResults: found.map(({ unitId, ...point }) => ({
        restorePoint: { ...point, protectionUnit: { id: unitId } },
      })),
      noResultProtectionUnitIds: (ids as string[]).filter(
        (id) => !found.some((point) => point.unitId === id),
      ),
    },
  };
}
