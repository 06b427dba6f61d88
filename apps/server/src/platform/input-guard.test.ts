import { Code, endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, snapshot, startTestApp, type TestApp } from '../testing/harness.js';
import { unstorableTextIssue } from './input-guard.js';

describe('unstorableTextIssue', () => {
  it('finds a NUL or a lone surrogate in keys and values at any depth, with its path', () => {
    expect(unstorableTextIssue({ a: 'x\u0000y' })).toEqual({ path: 'a', message: 'must not contain a NUL character' });
    expect(unstorableTextIssue({ a: [{ b: 'ok' }, { b: '\ud800' }] })).toEqual({
      path: 'a.1.b',
      message: 'must be valid Unicode text',
    });
    expect(unstorableTextIssue({ 'bad\u0000key': 1 })?.message).toBe('field name must not contain a NUL character');
    expect(unstorableTextIssue('x\udc00')?.message).toBe('must be valid Unicode text');
  });

  it('lets well-formed text through, surrogate pairs (emoji) included, and survives deep nesting', () => {
    expect(unstorableTextIssue({ a: '😀 中文 ok', b: [1, null, true, { c: 'é' }] })).toBeNull();
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(unstorableTextIssue(deep)).toBeNull();
  });
});

describe('requests the database cannot hold', () => {
  let t: TestApp;
  let admin: Auth;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.loginWithToken2('admin');
  });
  afterAll(() => t.close());

  it('the unauthenticated sign-in refuses a NUL and invalid Unicode with 400, changing nothing', async () => {
    const before = await snapshot(t.database);
    for (const payload of [
      '{"userName":"admin\\u0000","password":"demo1234","googleCode":"123456"}',
      '{"userName":"admin","password":"\\ud800","googleCode":"123456"}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: endpoints.auth.login.path,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ code: Code.invalidInput, data: { issues: [{ path: expect.any(String) }] } });
    }
    expect(await snapshot(t.database)).toBe(before);
  });

  it('an id beyond its column is a 400 naming the field, not a 500', async () => {
    const res = await t.call(endpoints.users.updateUser, { id: 2_147_483_648, nickname: 'x' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.data.issues[0].path).toBe('id');
    const query = await t.app.inject({
      url: `${endpoints.orders.getList.path}?pageIndex=1&productId=99999999999999999999`,
      headers: { token: admin.token! },
    });
    expect(query.statusCode).toBe(400);
  });

  it('a POST with a JSON content type and an empty body reads as an empty object', async () => {
    for (const endpoint of [endpoints.auth.getInfo, endpoints.auth.getSessions]) {
      const res = await t.app.inject({
        method: 'POST',
        url: endpoint.path,
        payload: '',
        headers: { 'content-type': 'application/json', token: admin.token! },
      });
      expect(res.statusCode, endpoint.path).toBe(200);
    }
    // An empty object still has to satisfy the endpoint's schema.
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.users.updateUser.path,
      payload: '',
      headers: { 'content-type': 'application/json', token: admin.token!, token2: admin.token2! },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.issues.map((i: { path: string }) => i.path)).toContain('id');
  });
});
