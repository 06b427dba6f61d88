import { describe, expect, it } from 'vitest';
import { decideNavigation, type UserState } from './guard';

const ready = (access: 'admin' | 'merchant' | 'supplier', needsBind = false): UserState => ({
  status: 'ready',
  access,
  needsBind,
});

describe('navigation guard (spec section 2)', () => {
  it('without a token every page goes to sign-in, and sign-in renders', () => {
    expect(decideNavigation('/merchants/list', false, { status: 'idle' })).toEqual({ type: 'redirect', to: '/login' });
    expect(decideNavigation('/home', false, { status: 'idle' })).toEqual({ type: 'redirect', to: '/login' });
    expect(decideNavigation('/login', false, { status: 'idle' })).toEqual({ type: 'render' });
  });

  it('a signed-in user opening sign-in goes home', () => {
    expect(decideNavigation('/login', true, ready('admin'))).toEqual({ type: 'redirect', to: '/home' });
    expect(decideNavigation('/login', true, { status: 'idle' })).toEqual({ type: 'redirect', to: '/home' });
  });

  it('loads the user info first; when that fails, signs out', () => {
    expect(decideNavigation('/home', true, { status: 'idle' })).toEqual({ type: 'loadUser' });
    expect(decideNavigation('/home', true, { status: 'loading' })).toEqual({ type: 'loadUser' });
    expect(decideNavigation('/home', true, { status: 'failed' })).toEqual({ type: 'signOut' });
  });

  it('a route the access list does not permit goes to the 401 page', () => {
    expect(decideNavigation('/merchants/list', true, ready('merchant'))).toEqual({ type: 'redirect', to: '/401' });
    expect(decideNavigation('/merchants/list', true, ready('admin'))).toEqual({ type: 'render' });
  });

  it('a route without an access list is open to every signed-in user; unknown paths render (404)', () => {
    expect(decideNavigation('/home', true, ready('merchant'))).toEqual({ type: 'render' });
    expect(decideNavigation('/message_page', true, ready('supplier'))).toEqual({ type: 'render' });
    expect(decideNavigation('/no/such/page', true, ready('supplier'))).toEqual({ type: 'render' });
  });

  it('an unconfirmed authenticator goes to /googleVerify, and only there', () => {
    expect(decideNavigation('/home', true, ready('admin', true))).toEqual({ type: 'redirect', to: '/googleVerify' });
    expect(decideNavigation('/googleVerify', true, ready('admin', true))).toEqual({ type: 'render' });
    expect(decideNavigation('/googleVerify', true, ready('admin'))).toEqual({ type: 'redirect', to: '/home' });
  });

  it('/ redirects to /home', () => {
    expect(decideNavigation('/', true, ready('merchant'))).toEqual({ type: 'redirect', to: '/home' });
  });
});
