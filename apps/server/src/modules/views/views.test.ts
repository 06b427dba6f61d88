import { Code, endpoints, MAX_VIEWS_PER_PAGE, VIEW_TEXTS } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';

const { views } = endpoints;
let t: TestApp;
let admin: Auth;
let service: Auth;
let merchant: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin');
  service = await t.login('service');
  merchant = await t.login('merchant1');
});
afterAll(() => t.close());

const listOf = async (page: string, who: Auth) => {
  const res = await t.call(views.getList, { page }, who);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<{ id: number; page: string; name: string; filters: Record<string, unknown> }>;
};
const save = (input: unknown, who: Auth) => {
  t.clock.advance(1000);
  return t.call(views.save, input, who);
};
const auditOf = async (action: string) =>
  (await t.call(endpoints.audit.getList, { pageIndex: 1, action }, await t.login('superadmin'))).body.data.list;

describe('saved views', () => {
  it('saves views for the caller and page, lists them newest first, and keeps them from other users and pages', async () => {
    const first = await save({ page: 'merchantList', name: ' Big ones ', filters: { minBalance: '500.0001' } }, admin);
    expect(first.body.code, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({
      page: 'merchantList',
      name: 'Big ones',
      filters: { minBalance: '500.0001' },
    });
    const second = await save(
      { page: 'merchantList', name: 'Disabled', filters: { enabled: false, merchantName: null, productId: 1001 } },
      admin,
    );
    expect(second.body.code).toBe(200);

    const mine = await listOf('merchantList', admin);
    expect(mine.map((v) => v.name)).toEqual(['Disabled', 'Big ones']);
    expect(mine[0]!.filters).toEqual({ enabled: false, merchantName: null, productId: 1001 });
    expect(await listOf('merchantList', service)).toEqual([]);
    expect(await listOf('auditLog', admin)).toEqual([]);
  });

  it('replaces the filters of a view saved again under the same name (trimmed), keeping one row', async () => {
    await save({ page: 'fundRecordAdmin', name: 'Today', filters: { orderCode: 'A1' } }, service);
    const before = await listOf('fundRecordAdmin', service);
    const again = await save({ page: 'fundRecordAdmin', name: 'Today  ', filters: { orderCode: 'B2' } }, service);
    expect(again.body.code).toBe(200);
    const after = await listOf('fundRecordAdmin', service);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before[0]!.id, name: 'Today', filters: { orderCode: 'B2' } });
    const [row] = await auditOf('views.save');
    expect(row).toMatchObject({
      account: 'service',
      target: `view:${before[0]!.id}`,
      before: { filters: { orderCode: 'A1' } },
      after: { filters: { orderCode: 'B2' } },
    });
  });

  it('deletes only the caller’s own view: another user’s id answers 404 and the view stays', async () => {
    const saved = await save({ page: 'fundRecord', name: 'Mine', filters: { type: 'payment' } }, merchant);
    expect(saved.body.code).toBe(200);
    const id = saved.body.data.id as number;

    const theirs = await t.call(views.delete, { id }, admin);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe(Code.notFound);
    expect((await listOf('fundRecord', merchant)).map((v) => v.id)).toEqual([id]);

    expect((await t.call(views.delete, { id }, merchant)).body.code).toBe(200);
    expect(await listOf('fundRecord', merchant)).toEqual([]);
    expect((await t.call(views.delete, { id }, merchant)).body.code).toBe(Code.notFound);
    const [row] = await auditOf('views.delete');
    expect(row).toMatchObject({ account: 'merchant1', target: `view:${id}`, before: { name: 'Mine' }, after: null });
  });

  it('refuses an unknown page, a bad name and filters that are nested, too many or too large, and saves nothing', async () => {
    const bad: unknown[] = [
      { page: 'noSuchPage', name: 'x', filters: {} },
      { page: '/merchants/list', name: 'x', filters: {} },
      { page: 'merchantList', name: '   ', filters: {} },
      { page: 'merchantList', name: 'n'.repeat(41), filters: {} },
      { page: 'merchantList', name: 'x', filters: { nested: { a: 1 } } },
      { page: 'merchantList', name: 'x', filters: { list: [1, 2] } },
      { page: 'merchantList', name: 'x', filters: { 'bad key': '1' } },
      {
        page: 'merchantList',
        name: 'x',
        filters: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
      },
      { page: 'merchantList', name: 'x', filters: { text: 'y'.repeat(3990) } },
      { page: 'merchantList', name: 'x', filters: 'a=1' },
    ];
    for (const input of bad) {
      const res = await t.call(views.save, input, merchant);
      expect(res.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe(Code.invalidInput);
    }
    const unknownPage = await t.call(views.getList, { page: 'noSuchPage' }, merchant);
    expect(unknownPage.status).toBe(400);
    expect(unknownPage.body.data.issues[0].message).toBe(VIEW_TEXTS.unknownPage);
    expect(await listOf('merchantList', merchant)).toEqual([]);

    const longest = await save(
      { page: 'merchantList', name: 'n'.repeat(40), filters: { a: 'y'.repeat(3980) } },
      merchant,
    );
    expect(longest.body.code).toBe(200);
  });

  it(`keeps at most ${MAX_VIEWS_PER_PAGE} views per user and page (422 tooManyViews), still replacing existing ones`, async () => {
    const support = await t.login('support');
    for (let i = 0; i < MAX_VIEWS_PER_PAGE; i++) {
      const res = await t.call(views.save, { page: 'supplierList', name: `v${i}`, filters: { n: i } }, support);
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    }
    const over = await t.call(views.save, { page: 'supplierList', name: 'one more', filters: {} }, support);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      code: Code.businessRule,
      msg: VIEW_TEXTS.tooManyViews,
      data: { reason: 'tooManyViews' },
    });
    expect(await listOf('supplierList', support)).toHaveLength(MAX_VIEWS_PER_PAGE);

    const replace = await t.call(views.save, { page: 'supplierList', name: 'v3', filters: { n: 33 } }, support);
    expect(replace.body.code).toBe(200);
    const otherPage = await t.call(views.save, { page: 'auditLog', name: 'v0', filters: {} }, support);
    expect(otherPage.body.code).toBe(200);
    // The limit is per user: another user still saves on that page.
    expect((await t.call(views.save, { page: 'supplierList', name: 'v0', filters: {} }, admin)).body.code).toBe(200);
  });
});
