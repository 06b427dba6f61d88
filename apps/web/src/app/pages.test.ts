import { ROUTES } from '@paydesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESOURCE_PAGES } from '../features/resources/channels';
import { BUILT_PAGES } from './built-pages';
import { PAGES, PageLoadTimeout, preloadPage, withTimeout } from './pages';

afterEach(() => vi.useRealTimers());

describe('pages', () => {
  it('every built page is a route of the contract', () => {
    const names = new Set(ROUTES.map((r) => r.name));
    for (const name of BUILT_PAGES) expect(names.has(name), name).toBe(true);
    expect(Object.keys(PAGES).sort()).toEqual([...BUILT_PAGES].sort());
  });

  it('every resource page is built', () => {
    for (const name of Object.keys(RESOURCE_PAGES))
      expect((BUILT_PAGES as readonly string[]).includes(name), name).toBe(true);
  });

  it('a page that has not loaded after 120 s fails with a timeout (spec section 9)', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => undefined);
    const loading = withTimeout(never);
    const outcome = expect(loading).rejects.toBeInstanceOf(PageLoadTimeout);
    await vi.advanceTimersByTimeAsync(119_999);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
  });

  it('a built page can be loaded ahead of the shell; a name without a page loads nothing', async () => {
    // The download starts (the module itself is the page's; loading it here would take long).
    expect(preloadPage('orderList')).toBeInstanceOf(Promise);
    expect(preloadPage('noSuchPage')).toBeUndefined();
  });

  it('a page that loads in time resolves', async () => {
    await expect(withTimeout(Promise.resolve('page'), 10)).resolves.toBe('page');
  });
});
