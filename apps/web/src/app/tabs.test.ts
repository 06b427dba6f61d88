import { describe, expect, it } from 'vitest';
import { closeAll, closeOthers, closeTab, HOME_TAB, isClosable, openTab, type Tab } from './tabs';

const a: Tab = { path: '/merchants/list', name: 'merchantsList' };
const b: Tab = { path: '/audit', name: 'auditLog' };
const c: Tab = { path: '/profile/list', name: 'profileList' };

describe('tag tabs', () => {
  it('opens each page once, with home always first', () => {
    const tabs = openTab(openTab(openTab([], a), b), a);
    expect(tabs.map((t) => t.path)).toEqual(['/home', a.path, b.path]);
  });

  it('never closes home', () => {
    expect(isClosable(HOME_TAB)).toBe(false);
    const tabs = openTab([], a);
    expect(closeTab(tabs, '/home', '/home').tabs).toEqual(tabs);
  });

  it('closing the active tab moves to its right neighbour, else its left one', () => {
    const tabs = [HOME_TAB, a, b, c];
    expect(closeTab(tabs, b.path, b.path)).toEqual({ tabs: [HOME_TAB, a, c], next: c.path });
    expect(closeTab(tabs, c.path, c.path)).toEqual({ tabs: [HOME_TAB, a, b], next: b.path });
    expect(closeTab(tabs, a.path, c.path)).toEqual({ tabs: [HOME_TAB, b, c], next: c.path });
  });

  it('close others keeps home and the chosen tab; close all keeps home and goes there', () => {
    const tabs = [HOME_TAB, a, b, c];
    expect(closeOthers(tabs, b.path)).toEqual([HOME_TAB, b]);
    expect(closeAll(tabs)).toEqual({ tabs: [HOME_TAB], next: '/home' });
  });
});
