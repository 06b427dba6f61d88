import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getToken, getToken2, onTokenChange, setToken, setToken2 } from './session-storage';

/**
 * The server's token cookie is HttpOnly (no script reads it): the console keeps the token of the
 * login answer itself, for a day, shared by its tabs, and never writes a cookie of its own.
 */
afterEach(() => vi.useRealTimers());

describe('session storage', () => {
  it('keeps the token across tabs and reloads (local storage), and writes no cookie', () => {
    setToken('T1');
    expect(getToken()).toBe('T1');
    expect(localStorage.getItem('token')).toContain('T1');
    expect(document.cookie).not.toContain('T1');
  });

  it('forgets the token after a day, as the cookie it replaces did', () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    setToken('T1');
    vi.setSystemTime(new Date('2026-03-02T09:59:00Z'));
    expect(getToken()).toBe('T1');
    vi.setSystemTime(new Date('2026-03-02T10:00:01Z'));
    expect(getToken()).toBeNull();
  });

  it('clears token and token2 together, and tells listeners', () => {
    const listener = vi.fn();
    const stop = onTokenChange(listener);
    setToken('T1');
    setToken2('T2');
    clearToken();
    expect(getToken()).toBeNull();
    expect(getToken2()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
  });

  it('tells listeners when another tab signs in or out', () => {
    const listener = vi.fn();
    const stop = onTokenChange(listener);
    window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated' }));
    expect(listener).toHaveBeenCalledOnce();
    stop();
    window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    expect(listener).toHaveBeenCalledOnce();
  });

  it('ignores a value it did not write (an older console’s)', () => {
    localStorage.setItem('token', 'not-json');
    expect(getToken()).toBeNull();
  });
});
