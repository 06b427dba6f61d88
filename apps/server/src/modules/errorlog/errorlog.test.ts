import { Code, endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPlatformTime } from '../../platform/time.js';
import { type Auth, downloadCsv, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';

const { errorLog } = endpoints;
let t: TestApp;
let merchant: Auth;
let staff: Auth;

beforeAll(async () => {
  t = await startTestApp();
  merchant = await t.login('merchant1');
  staff = await t.login('maintenance');
});
afterAll(() => t.close());

const report = (page: string, message: string) => ({
  page,
  message,
  stack: `Error: ${message}\n    at Page (${page}.tsx:1:1)`,
  userAgent: 'Mozilla/5.0 test',
});

describe('script errors', () => {
  it('are saved with the account, address and time, and listed with filters', async () => {
    const early = formatPlatformTime(t.clock.now(), t.config.timeZone);
    const saved = await t.call(errorLog.save, report('/order/list', 'boom'), { ...merchant, ip: '10.200.0.1' });
    expect(saved.body).toEqual({ code: 200, msg: 'success', data: null });
    const midway = formatPlatformTime(new Date(t.clock.now().getTime() + 1_800_000), t.config.timeZone);
    t.clock.advance(3_600_000);
    await t.call(errorLog.save, { page: '/home', message: 'late', userAgent: '' }, staff);

    const all = await t.call(errorLog.getList, { pageIndex: 1 }, staff);
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list[0]).toMatchObject({
      page: '/home',
      message: 'late',
      stack: null,
      account: 'maintenance',
    });
    expect(all.body.data.list[1]).toMatchObject({
      account: 'merchant1',
      page: '/order/list',
      message: 'boom',
      userAgent: 'Mozilla/5.0 test',
      ip: '10.200.0.1',
      userId: expect.any(Number),
    });

    const byAccount = await t.call(errorLog.getList, { pageIndex: 1, account: 'merchant' }, staff);
    expect(byAccount.body.data.list.map((r: { message: string }) => r.message)).toEqual(['boom']);
    const byPage = await t.call(errorLog.getList, { pageIndex: 1, page: 'order' }, staff);
    expect(byPage.body.data.list.map((r: { message: string }) => r.message)).toEqual(['boom']);
    const firstHalf = await t.call(errorLog.getList, { pageIndex: 1, startTime: early, endTime: midway }, staff);
    expect(firstHalf.body.data.list.map((r: { message: string }) => r.message)).toEqual(['boom']);
    const secondHalf = await t.call(errorLog.getList, { pageIndex: 1, startTime: midway, endTime: '' }, staff);
    expect(secondHalf.body.data.list.map((r: { message: string }) => r.message)).toEqual(['late']);
    const paged = await t.call(errorLog.getList, { pageIndex: 2, pageNum: 1 }, staff);
    expect(paged.body.data).toMatchObject({ total: 2, pageIndex: 2, pageSize: 1 });
    expect(paged.body.data.list[0].message).toBe('boom');
  });

  it('exports the filtered set as CSV, matching the list', async () => {
    await t.call(errorLog.save, report('/payout/list', 'export me'), merchant);
    const list = await t.call(errorLog.getList, { pageIndex: 1, pageSize: 500, page: '/payout' }, staff);
    const csv = await downloadCsv(t, errorLog.export, { page: '/payout' }, staff);
    expect(csv.status).toBe(200);
    expect(csv.header).toBe('id,userId,account,page,message,stack,userAgent,ip,createdAt');
    expect(list.body.data.total).toBeGreaterThan(0);
    expect(csv.rows.filter((r) => r.includes('export me'))).toHaveLength(list.body.data.total);
  });

  it('a merchant may report but not list', async () => {
    const res = await t.call(errorLog.getList, { pageIndex: 1 }, merchant);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(Code.forbidden);
  });

  it('refuses oversized reports and reports without a session', async () => {
    const big = await t.call(errorLog.save, { ...report('/x', 'y'), stack: 's'.repeat(8001) }, merchant);
    expect(big.body.code).toBe(Code.invalidInput);
    const anonymous = await t.call(errorLog.save, report('/x', 'y'), { ip: nextIp() });
    expect(anonymous.body.code).toBe(Code.sessionExpired);
  });

  it('is rate-limited per address', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 61; i += 1) {
      codes.push((await t.call(errorLog.save, report('/loop', `n${i}`), { ...merchant, ip })).body.code);
    }
    expect(codes.slice(0, 60).every((c) => c === 200)).toBe(true);
    expect(codes[60]).toBe(Code.tooManyRequests);
    // Another address is not affected.
    expect((await t.call(errorLog.save, report('/loop', 'other'), { ...merchant, ip: nextIp() })).body.code).toBe(200);
  });
});
