import { describe, expect, it } from 'vitest';
import { type CachedSession, parseEviction, SessionCache } from './session-cache.js';

const entry = (sessionId: number, userId: number, name = `s${sessionId}`): CachedSession<string> => ({
  user: name,
  sessionId,
  userId,
  lastSeenAt: 0,
  expiresAt: 1e15,
});

function cacheAt(opts: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 1_000;
  const cache = new SessionCache<string>({
    ttlMs: opts.ttlMs ?? 5_000,
    maxEntries: opts.maxEntries ?? 100,
    now: () => now,
  });
  cache.setEnabled(true);
  return {
    cache,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('session cache', () => {
  it('serves an entry until its time limit, then no more', () => {
    const { cache, advance } = cacheAt({ ttlMs: 5_000 });
    expect(cache.set('t1', entry(1, 10), cache.generation)).toBe(true);
    advance(4_999);
    expect(cache.get('t1')?.user).toBe('s1');
    advance(1);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the least recently used', () => {
    const { cache } = cacheAt({ maxEntries: 2 });
    cache.set('t1', entry(1, 10), cache.generation);
    cache.set('t2', entry(2, 20), cache.generation);
    cache.get('t1'); // t2 is now the least recently used
    cache.set('t3', entry(3, 30), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.get('t2')).toBeUndefined();
    expect(cache.get('t1')?.user).toBe('s1');
    expect(cache.get('t3')?.user).toBe('s3');
    // Its indexes went with it: evicting session 2 or user 20 touches nothing else.
    cache.evict({ sessionIds: [2], userIds: [20] });
    expect(cache.size).toBe(2);
  });

  it('forgets by session, by user (every session of it) and everything', () => {
    const { cache } = cacheAt();
    cache.set('a1', entry(1, 10), cache.generation);
    cache.set('a2', entry(2, 10), cache.generation);
    cache.set('b3', entry(3, 20), cache.generation);
    cache.set('c4', entry(4, 30), cache.generation);
    cache.evict({ sessionIds: [3] });
    expect(cache.get('b3')).toBeUndefined();
    expect(cache.get('a1')).toBeDefined();
    cache.evict({ userIds: [10] });
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('c4')).toBeDefined();
    cache.evict({ all: true });
    expect(cache.get('c4')).toBeUndefined();
  });

  it('does not store what a lookup read before an eviction (the revocation race)', () => {
    const { cache } = cacheAt();
    // A lookup takes the generation, reads the row (still live), and meanwhile the revocation commits
    // and its notification evicts (nothing cached yet to evict: only the generation moves).
    const before = cache.generation;
    cache.evict({ sessionIds: [1] });
    expect(cache.set('t1', entry(1, 10), before)).toBe(false);
    expect(cache.get('t1')).toBeUndefined();
    // An eviction of any other session or user also stops it: the generation is per process.
    const next = cache.generation;
    cache.evict({ userIds: [99] });
    expect(cache.set('t1', entry(1, 10), next)).toBe(false);
    // A lookup that started after the eviction read the committed row: it may store.
    expect(cache.set('t1', entry(1, 10), cache.generation)).toBe(true);
  });

  it('serves and stores nothing while changes are not heard, and starts empty when they are again', () => {
    const { cache } = cacheAt();
    cache.set('t1', entry(1, 10), cache.generation);
    const during = cache.generation;
    cache.setEnabled(false);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.set('t2', entry(2, 20), cache.generation)).toBe(false);
    cache.setEnabled(true);
    expect(cache.get('t1')).toBeUndefined();
    // A lookup that began before the loss may have missed a change: not stored after the reconnect.
    expect(cache.set('t1', entry(1, 10), during)).toBe(false);
  });

  it('keeps a newer last use noted by touch', () => {
    const { cache } = cacheAt();
    cache.set('t1', entry(1, 10), cache.generation);
    cache.touch('t1', 123_456);
    expect(cache.get('t1')?.lastSeenAt).toBe(123_456);
  });

  it('reads the notification payloads of the triggers, and nothing else', () => {
    expect(parseEviction('s:42')).toEqual({ sessionIds: [42] });
    expect(parseEviction('u:7')).toEqual({ userIds: [7] });
    expect(parseEviction('*')).toEqual({ all: true });
    for (const bad of ['', 's:', 'x:1', 's:1,2', 'u:-1', 's:1 ', 'u:1e3']) expect(parseEviction(bad)).toBeUndefined();
  });
});
