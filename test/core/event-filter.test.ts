import { eventMatches, kindMatches, severityAtLeast } from '../../src/core/events/event-filter.js';

const event = {
  event: 'security.risky_signin',
  severity: 'high' as const,
  tenant: { id: 't1', name: 'T', domain: 't.test' },
};

describe('event selection (webhooks and subscriptions)', () => {
  it('matches kinds exactly or with * wildcards', () => {
    expect(kindMatches('security.risky_signin', ['security.*'])).toBe(true);
    expect(kindMatches('security.risky_signin', ['*'])).toBe(true);
    expect(kindMatches('security.risky_signin', ['user.*', 'security.risky_signin'])).toBe(true);
    expect(kindMatches('user.created', ['security.*'])).toBe(false);
    expect(kindMatches('userXcreated', ['user.created'])).toBe(false);
    expect(kindMatches('user.created', [])).toBe(true);
  });

  it('keeps events at or above the minimum severity', () => {
    expect(severityAtLeast('high', 'medium')).toBe(true);
    expect(severityAtLeast('low', 'medium')).toBe(false);
    expect(severityAtLeast('informational', null)).toBe(true);
  });

  it('filters by tenant; events without a tenant pass only an unfiltered selection', () => {
    expect(eventMatches(event, { events: ['*'], tenantIds: ['t1'] })).toBe(true);
    expect(eventMatches(event, { events: ['*'], tenantIds: ['t2'] })).toBe(false);
    expect(eventMatches({ ...event, tenant: null }, { events: ['*'], tenantIds: ['t1'] })).toBe(false);
    expect(eventMatches({ ...event, tenant: null }, { events: ['*'] })).toBe(true);
    expect(eventMatches(event, { events: ['security.*'], minSeverity: 'critical' })).toBe(false);
  });
});
