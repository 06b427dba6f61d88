/** The tag tabs of spec section 2, as pure rules over a list of open paths. */
export interface Tab {
  path: string;
  /** Route name: its title is `route.<name>`. */
  name: string;
}

export const HOME_TAB: Tab = { path: '/home', name: 'home' };

/** Opening a page adds its tab once; home is always first. */
export function openTab(tabs: readonly Tab[], tab: Tab): Tab[] {
  const withHome = tabs.some((t) => t.path === HOME_TAB.path) ? [...tabs] : [HOME_TAB, ...tabs];
  return withHome.some((t) => t.path === tab.path) ? withHome : [...withHome, tab];
}

/** The home tab cannot be closed. */
export const isClosable = (tab: Tab) => tab.path !== HOME_TAB.path;

/** Closes one tab; answers the remaining tabs and where to go when the active one was closed. */
export function closeTab(tabs: readonly Tab[], path: string, activePath: string): { tabs: Tab[]; next: string } {
  const index = tabs.findIndex((t) => t.path === path);
  if (index < 0 || !isClosable(tabs[index]!)) return { tabs: [...tabs], next: activePath };
  const rest = tabs.filter((t) => t.path !== path);
  if (path !== activePath) return { tabs: rest, next: activePath };
  const neighbour = rest[index] ?? rest[index - 1] ?? HOME_TAB;
  return { tabs: rest, next: neighbour.path };
}

/** Close others: keeps home and the given tab. */
export function closeOthers(tabs: readonly Tab[], path: string): Tab[] {
  return tabs.filter((t) => !isClosable(t) || t.path === path);
}

/** Close all: keeps home only, which becomes active. */
export function closeAll(tabs: readonly Tab[]): { tabs: Tab[]; next: string } {
  return { tabs: tabs.filter((t) => !isClosable(t)), next: HOME_TAB.path };
}
