import { MENU_GROUPS, type MenuGroup, type RouteDef } from '@paydesk/contract';

/** A menu entry: one route, or a group of them (a submenu). */
export type MenuEntry = { route: RouteDef } | { group: MenuGroup; routes: RouteDef[] };

/**
 * The side menu's shape for a role's routes: groups in MENU_GROUPS order, each a submenu, except the
 * home group's routes and a group the role sees one route of, which stand alone: a submenu of one item
 * named like it (admin's 'Collection orders' > 'Collection orders') is a click for nothing.
 */
export function menuTree(routes: RouteDef[]): MenuEntry[] {
  return MENU_GROUPS.flatMap((group): MenuEntry[] => {
    const inGroup = routes.filter((r) => r.group === group);
    if (group === 'home' || inGroup.length === 1) return inGroup.map((route) => ({ route }));
    return inGroup.length === 0 ? [] : [{ group, routes: inGroup }];
  });
}

/**
 * The group the breadcrumb names before a page: the submenu the page sits in, none for a page the menu
 * shows alone (so admin's order list reads 'Collection orders', not 'Collection orders / Collection
 * orders'), and the page's own group for a page the menu does not list.
 */
export function breadcrumbGroup(tree: MenuEntry[], current: RouteDef): MenuGroup | undefined {
  for (const entry of tree) {
    if ('route' in entry) {
      if (entry.route.path === current.path) return undefined;
    } else if (entry.routes.some((r) => r.path === current.path)) return entry.group;
  }
  return current.group === 'home' ? undefined : current.group;
}
