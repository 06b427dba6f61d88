import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNarrow } from './useNarrow';

/** A stand-in for the browser's media query list: `matches` and its change listeners. */
function stubMedia(initial: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: initial,
    addEventListener: (_: 'change', l: () => void) => listeners.add(l),
    removeEventListener: (_: 'change', l: () => void) => listeners.delete(l),
  };
  vi.stubGlobal('matchMedia', (query: string) => {
    expect(query).toBe('(max-width: 767.98px)');
    return media;
  });
  return {
    set(matches: boolean) {
      media.matches = matches;
      for (const l of listeners) l();
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('useNarrow', () => {
  it('follows the phone media query as the screen turns', () => {
    const media = stubMedia(true);
    const { result } = renderHook(() => useNarrow());
    expect(result.current).toBe(true);
    act(() => media.set(false));
    expect(result.current).toBe(false);
  });

  it('counts as wide where the browser has no media queries', () => {
    vi.stubGlobal('matchMedia', undefined);
    expect(renderHook(() => useNarrow()).result.current).toBe(false);
  });
});
