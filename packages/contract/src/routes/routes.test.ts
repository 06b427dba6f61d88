import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../common/roles.js';
import { MENU_GROUPS } from './route.js';
import { canAccessRoute, menuRoutesFor, ROUTES, routeByPath } from './routes.js';

const CS: Role[] = ['customerService', 'technicalMaintenance'];

/** Paths copied literally from spec section 2, with the roles the spec gives them. */
const SPEC_ROUTES: ReadonlyArray<[string, 'public' | undefined | Role[]]> = [
  ['/login', 'public'],
  ['/googleVerify', 'public'],
  ['/home', undefined],
  ['/merchants/list', ['admin', 'superAdmin']],
  ['/merchants/list/customerService', CS],
  ['/supplier/list', ['admin', 'superAdmin', 'technicalSupport']],
  ['/supplier/list/customerService', CS],
  ['/supplier-proxy', ['supplier']],
  ['/internationalCardToCard/list', ['supplier']],
  ['/internationalCardToCard/list-admin', ['admin', 'superAdmin']],
  ['/internationalCardToCard/list-admin/customerService', CS],
  ['/indiaAutoPayout/list', ['supplier']],
  ['/indiaAutoPayout/list-admin', ['admin', 'superAdmin']],
  ['/indiaAutoPayout/list-admin/customerService', CS],
  ['/razorpayPayProxy/list', ['supplier']],
  ['/uSDTFloating/list', ['supplier']],
  ['/uSDTPayProxy/list', ['supplier']],
  ['/order/list', ['admin', 'superAdmin']],
  ['/order/list/supplier', ['supplier']],
  ['/order/list/merchant', ['merchant']],
  ['/order/profile', ['superAdmin']],
  ['/bankStatement/list', ['admin', 'supplier']],
  ['/bankStatement/list-sa', ['superAdmin']],
  ['/bankStatement/webMessageRecord-admin', ['superAdmin', 'admin', 'supplier']],
  ['/bankStatement/usdtTransactionRecord-admin', ['superAdmin', 'admin', 'supplier']],
  ['/securityNodes/security-patch-list', ['superAdmin']],
  ['/securityNodes/list', ['superAdmin']],
  ['/orderAnalysis/order-analysis-list', ['admin', 'superAdmin']],
  ['/orderAnalysis/fronzen-ip-list', ['admin', 'superAdmin']],
  ['/payProxyOrder/list', ['admin', 'superAdmin']],
  ['/payoutBatch/list', ['superAdmin', 'admin', 'supplier']],
  ['/payoutBatch/list/customerService', CS],
  ['/order/statisticsByMerhcant/customerService', CS],
  ['/order/statisticsByMerhcantV2', ['superAdmin', 'admin']],
  ['/order/statistics/supplierV2', ['supplier']],
  ['/fundRecord/fundRecord', ['merchant', 'supplier']],
  ['/fundRecord/fundRecordAdmin', ['admin', 'superAdmin']],
  ['/monitorLog/monitorLog', ['admin', 'superAdmin']],
  ['/order/test/merchant', ['merchant']],
  ['/profile/list', ['admin', 'supplier', 'merchant', 'superAdmin']],
  ['/systemConfig', ['superAdmin', 'admin', 'customerService']],
  ['/kenya/list-admin', ['admin', 'superAdmin']],
  ['/kenya/list-admin/customerService', CS],
];

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

function mustRoute(path: string) {
  const route = routeByPath(path);
  if (route === undefined) throw new Error(`no route ${path}`);
  return route;
}

describe('ROUTES', () => {
  it('has unique names and paths', () => {
    const names = ROUTES.map((r) => r.name);
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('uses camelCase names and known menu groups', () => {
    for (const r of ROUTES) {
      expect(r.name).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(MENU_GROUPS).toContain(r.group);
    }
  });

  it('contains the spec paths with the spec roles', () => {
    expect(SPEC_ROUTES.length).toBeGreaterThanOrEqual(25);
    for (const [path, access] of SPEC_ROUTES) {
      const route = mustRoute(path);
      if (access === undefined || access === 'public') expect(route.access, path).toBe(access);
      else {
        expect(Array.isArray(route.access), path).toBe(true);
        expect(sorted(route.access as readonly Role[]), path).toEqual(sorted(access));
      }
    }
  });

  it('redirects / to /home and names the home route home', () => {
    expect(mustRoute('/').redirect).toBe('/home');
    expect(mustRoute('/home').name).toBe('home');
  });

  it('marks read-only only technicalMaintenance-only variants', () => {
    const readOnly = ROUTES.filter((r) => r.readOnly === true);
    expect(readOnly.length).toBeGreaterThan(0);
    for (const r of readOnly) expect(r.access).toEqual(['technicalMaintenance']);
    expect(mustRoute('/systemConfig/readonly').readOnly).toBe(true);
  });

  it('asks to confirm closing only on the API test and batch payout pages', () => {
    expect(sorted(ROUTES.filter((r) => r.confirmClose === true).map((r) => r.path))).toEqual([
      '/order/test/merchant',
      '/payoutBatch/list',
    ]);
  });

  it('routeByPath ignores a trailing slash and misses unknown paths', () => {
    expect(routeByPath('/order/list/')?.name).toBe('orderList');
    expect(routeByPath('/nope')).toBeUndefined();
  });
});

describe('canAccessRoute', () => {
  it('follows the access list', () => {
    const merchants = mustRoute('/merchants/list');
    expect(canAccessRoute(merchants, 'merchant')).toBe(false);
    expect(canAccessRoute(merchants, 'admin')).toBe(true);
    expect(canAccessRoute(merchants, undefined)).toBe(false);
    expect(canAccessRoute(mustRoute('/supplier/list'), 'technicalSupport')).toBe(true);
  });

  it('opens a route without access list to every signed-in role only', () => {
    const home = mustRoute('/home');
    expect(home.access).toBeUndefined();
    for (const role of ROLES) expect(canAccessRoute(home, role)).toBe(true);
    expect(canAccessRoute(home, undefined)).toBe(false);
  });

  it('opens public routes to everyone, signed in or not', () => {
    for (const path of ['/login', '/googleVerify']) {
      const route = mustRoute(path);
      expect(canAccessRoute(route, undefined)).toBe(true);
      for (const role of ROLES) expect(canAccessRoute(route, role)).toBe(true);
    }
  });
});

describe('menuRoutesFor', () => {
  it('shows technicalSupport only the dynamic pay script pages under system', () => {
    const system = menuRoutesFor('technicalSupport').filter((r) => r.group === 'system');
    expect(sorted(system.map((r) => r.path))).toEqual(['/system/dynamicPayScript', '/system/dynamicPayScriptRecord']);
  });

  it('gives a merchant its own pages and no merchant or system management', () => {
    const menu = menuRoutesFor('merchant');
    expect(menu.map((r) => r.path)).toContain('/order/list/merchant');
    expect(menu.some((r) => r.group === 'merchants' || r.group === 'system')).toBe(false);
  });

  it('never lists public, hidden or redirect routes, and follows menu group order', () => {
    for (const role of ROLES) {
      const menu = menuRoutesFor(role);
      for (const r of menu) {
        expect(r.access).not.toBe('public');
        expect(r.hideInMenu).not.toBe(true);
        expect(r.redirect).toBeUndefined();
        expect(canAccessRoute(r, role)).toBe(true);
      }
      const order = menu.map((r) => MENU_GROUPS.indexOf(r.group));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it('holds only pages the role can use: no send test it cannot send, no team lists for an agent', () => {
    const names = (role: Role, who = {}) => menuRoutesFor(role, who).map((r) => r.name);
    expect(names('admin')).toContain('orderSendTest');
    expect(names('superAdmin')).toContain('orderSendTest');
    expect(names('customerService')).not.toContain('orderSendTest');
    expect(names('technicalMaintenance')).not.toContain('orderSendTestReadOnly');
    const team = ['supplierProxy', 'orderListSupplierProxy', 'payProxyOrderListSupplierProxy'];
    for (const name of team) {
      expect(names('supplier'), name).toContain(name);
      expect(names('supplier', { agent: true }), name).not.toContain(name);
    }
    // An agent keeps its own pages.
    expect(names('supplier', { agent: true })).toContain('orderListSupplier');
    for (const role of ROLES) {
      for (const r of menuRoutesFor(role)) {
        const needs = r.needs?.access;
        if (needs && needs !== 'public') expect(needs, `${role} ${r.name}`).toContain(role);
      }
    }
  });

  it('gives technicalMaintenance the read-only system pages', () => {
    const system = menuRoutesFor('technicalMaintenance').filter((r) => r.group === 'system');
    expect(system.length).toBeGreaterThan(0);
    expect(system.every((r) => r.readOnly === true)).toBe(true);
  });
});
