import {
  DEFAULT_RESTORE_SETTINGS,
  RESTORE_POLL_MAX_DELAY_MS,
  RESTORE_POLL_MIN_DELAY_MS,
  restorePollDelayMs,
  restoreSettingsOf,
} from '../../src/backup/backup.settings.js';
import { loadConfig } from '../../src/config.js';

/**
 * RESTORE_POLL_MIN_DELAY_MS: the shortest pause between two looks of a restore job at a restore the cloud is still
 * doing (Microsoft 365 Backup's restore sessions). A setting (README "Configuration") so an operator, and the
 * tests against the Graph fake, can look sooner; the default is what the constant was, 5 s.
 */
describe('RESTORE_POLL_MIN_DELAY_MS', () => {
  it('defaults to 5 s and takes another value within its bounds', () => {
    expect(RESTORE_POLL_MIN_DELAY_MS).toBe(5_000);
    expect(loadConfig({}).restorePollMinDelayMs).toBe(RESTORE_POLL_MIN_DELAY_MS);
    expect(loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '' }).restorePollMinDelayMs).toBe(5_000);
    expect(loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '100' }).restorePollMinDelayMs).toBe(100);
    expect(loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '300000' }).restorePollMinDelayMs).toBe(300_000);
  });

  it('refuses a busy loop, a minimum past the longest pause, and what is no number', () => {
    const bounds = /RESTORE_POLL_MIN_DELAY_MS must be between 100 and 300000 \(the longest pause/;
    expect(() => loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '99' })).toThrow(bounds);
    expect(() => loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '0' })).toThrow(bounds);
    expect(() => loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '300001' })).toThrow(bounds);
    expect(() => loadConfig({ RESTORE_POLL_MIN_DELAY_MS: 'soon' })).toThrow(/RESTORE_POLL_MIN_DELAY_MS/);
    expect(() => loadConfig({ RESTORE_POLL_MIN_DELAY_MS: '-5' })).toThrow(/RESTORE_POLL_MIN_DELAY_MS/);
  });
});

describe('the pause before the next look at a restore', () => {
  it('is a tenth of the time waited, at least the minimum and at most 5 minutes', () => {
    expect(restoreSettingsOf({})).toEqual(DEFAULT_RESTORE_SETTINGS);
    const byDefault = restoreSettingsOf({});
    expect(restorePollDelayMs(0, byDefault)).toBe(5_000);
    expect(restorePollDelayMs(49_000, byDefault)).toBe(5_000);
    expect(restorePollDelayMs(120_000, byDefault)).toBe(12_000);
    expect(restorePollDelayMs(24 * 3_600_000, byDefault)).toBe(RESTORE_POLL_MAX_DELAY_MS);
  });

  it('follows the setting: the first looks sooner, the later ones as before', () => {
    const sooner = restoreSettingsOf({ restores: { pollMinDelayMs: 200 } });
    expect(sooner).toEqual({ pollMinDelayMs: 200 });
    expect(restorePollDelayMs(0, sooner)).toBe(200);
    expect(restorePollDelayMs(1_000, sooner)).toBe(200);
    expect(restorePollDelayMs(10_000, sooner)).toBe(1_000);
    expect(restorePollDelayMs(120_000, sooner)).toBe(12_000);
    expect(restorePollDelayMs(24 * 3_600_000, sooner)).toBe(RESTORE_POLL_MAX_DELAY_MS);
  });
});
