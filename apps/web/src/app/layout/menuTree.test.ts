import { menuRoutesFor, ROUTES, type RouteDef } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { breadcrumbGroup, menuTree } from './menuTree';

const shape = (routes: RouteDef[]) =>
  menuTree(routes).map((e) => ('route' in e ? e.route.name : `${e.group}: ${e.routes.map((r) => r.name).join(', ')}`));

describe('side menu shape', () => {
  it('shows a group the role sees one route of as that route alone, and keeps groups of several', () => {
    const admin = shape(menuRoutesFor('admin'));
    // Admin sees one collection-order page: no 'Collection orders' submenu around it.
    expect(admin).toContain('orderList');
    expect(admin.some((e) => e.startsWith('collectionOrders:'))).toBe(false);

    const superAdmin = shape(menuRoutesFor('superAdmin'));
    expect(superAdmin).toContain('collectionOrders: orderList, orderProfile');

    const supplier = shape(menuRoutesFor('supplier'));
    expect(supplier).toContain('collectionOrders: orderListSupplier, orderListSupplierProxy');
    // Home stays first and alone whatever the role.
    expect(supplier[0]).toBe('home');
  });

  it('names in the breadcrumb only the group the menu shows around the page', () => {
    const byName = (name: string) => ROUTES.find((r) => r.name === name) as RouteDef;
    const admin = menuTree(menuRoutesFor('admin'));
    expect(breadcrumbGroup(admin, byName('orderList'))).toBeUndefined();
    const superAdmin = menuTree(menuRoutesFor('superAdmin'));
    expect(breadcrumbGroup(superAdmin, byName('orderList'))).toBe('collectionOrders');
    expect(breadcrumbGroup(superAdmin, byName('home'))).toBeUndefined();
  });
});
