import { endpoints } from '@paydesk/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, callForm, configureHttp, nullifyEmpty } from './http';
import { getToken, getToken2, setToken, setToken2 } from './session-storage';

const answers: Array<{ code: number; msg: string; data: unknown }> = [];
const requests: Array<{ url: string; init: RequestInit }> = [];

beforeEach(() => {
  answers.length = 0;
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      const body = answers.shift() ?? { code: 500, msg: 'no answer queued', data: null };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('http client', () => {
  it('sends token and token2 headers with credentials, JSON bodies with empty strings as null', async () => {
    setToken('T1');
    setToken2('T2');
    answers.push({ code: 200, msg: 'success', data: { id: 7 } });
    const data = await call(endpoints.users.addUser, {
      nickname: 'n',
      account: 'a1',
      password: 'abc12345',
      access: 'admin',
    });
    expect(data).toEqual({ id: 7 });
    const { url, init } = requests[0]!;
    expect(url).toBe('/v1.0/admin/addUser');
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ token: 'T1', token2: 'T2' });
    expect(nullifyEmpty({ a: '', b: { c: '' }, d: 1 })).toEqual({ a: null, b: { c: null }, d: 1 });
  });

  it('puts GET input in the query, leaving out empty values', async () => {
    answers.push({ code: 200, msg: 'success', data: { list: [], total: 0, pageIndex: 1, pageSize: 20 } });
    await call(endpoints.users.getUserList, { pageIndex: 2, account: '' });
    expect(requests[0]!.url).toBe('/v1.0/admin/getUserList?pageIndex=2');
  });

  it('callForm sends an upload as multipart (no JSON type, the browser sets the boundary) and retries it after token2', async () => {
    setToken('T1');
    const requestToken2 = vi.fn(async () => setToken2('fresh'));
    configureHttp({ requestToken2 });
    answers.push(
      { code: 1024, msg: 'second-level password required', data: null },
      { code: 200, msg: 'success', data: { batchId: 4 } },
    );
    const form = new FormData();
    form.append('batchId', '4');
    form.append('file', new File(['a,b\n'], 'result.csv', { type: 'text/csv' }));
    await expect(callForm(endpoints.payoutBatches.uploadResult, form)).resolves.toEqual({ batchId: 4 });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.url).toBe('/v1.0/payoutBatch/uploadResult');
    expect(requests[1]!.init.body).toBe(form);
    expect(requests[1]!.init.headers).toEqual({ token: 'T1', token2: 'fresh' });
  });

  it('1003: removes the heartbeat key and the token, and sends the user to sign-in', async () => {
    setToken('T1');
    localStorage.setItem('currentKey', 'k');
    const onSessionExpired = vi.fn();
    configureHttp({ onSessionExpired });
    answers.push({ code: 1003, msg: 'session expired', data: null });
    await expect(call(endpoints.auth.getInfo)).rejects.toMatchObject({ code: 1003 });
    expect(localStorage.getItem('currentKey')).toBeNull();
    expect(getToken()).toBeNull();
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('1024 and 1025: open the second-level dialog, then retry the call once with the new token2', async () => {
    for (const code of [1024, 1025] as const) {
      requests.length = 0;
      const requestToken2 = vi.fn(async () => setToken2(`fresh-${code}`));
      configureHttp({ requestToken2 });
      answers.push(
        { code, msg: 'second-level password required', data: null },
        { code: 200, msg: 'success', data: null },
      );
      await expect(call(endpoints.users.deleteUser, { id: 3 })).resolves.toBeNull();
      expect(requestToken2).toHaveBeenCalledWith(code);
      expect(requests).toHaveLength(2);
      expect(requests[1]!.init.headers).toMatchObject({ token2: `fresh-${code}` });
    }
  });

  it('a cancelled second-level dialog fails the call without retrying', async () => {
    configureHttp({ requestToken2: () => Promise.reject(new Error('cancelled')) });
    answers.push({ code: 1024, msg: 'second-level password required', data: null });
    await expect(call(endpoints.users.deleteUser, { id: 3 })).rejects.toThrow('cancelled');
    expect(requests).toHaveLength(1);
    expect(getToken2()).toBeNull();
  });

  it('other codes are logged and thrown with the server message and reason', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answers.push({
      code: 409,
      msg: 'add failed, check whether the account already exists',
      data: { reason: 'accountExists' },
    });
    const failure = await call(endpoints.users.addUser, {
      nickname: 'n',
      account: 'a1',
      password: 'abc12345',
      access: 'admin',
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 409, reason: 'accountExists' });
    expect(error).toHaveBeenCalled();
  });
});
