import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTime, platformNow, setPlatformTimeZone, TIME_FORMAT } from './time';

afterEach(() => {
  vi.useRealTimers();
  setPlatformTimeZone(undefined);
});

describe('platform time', () => {
  it('shows an instant as the wall clock of the platform’s zone, whatever the browser’s', () => {
    setPlatformTimeZone('Asia/Kolkata');
    expect(formatTime('2026-03-01T20:00:00.000Z')).toBe('2026-03-02 01:30:00');
    setPlatformTimeZone('America/New_York');
    expect(formatTime('2026-03-01T20:00:00.000Z')).toBe('2026-03-01 15:00:00');
  });

  it('shows nothing for no time or a time it cannot read', () => {
    setPlatformTimeZone('Asia/Kolkata');
    expect(formatTime(null)).toBe('');
    expect(formatTime(undefined)).toBe('');
    expect(formatTime('not a time')).toBe('');
  });

  it('today is the platform’s: at 20:00 UTC it is already the next day in India', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T20:00:00Z'));
    setPlatformTimeZone('Asia/Kolkata');
    expect(platformNow().format(TIME_FORMAT)).toBe('2026-03-02 01:30:00');
    expect(platformNow().startOf('day').format(TIME_FORMAT)).toBe('2026-03-02 00:00:00');
  });
});
