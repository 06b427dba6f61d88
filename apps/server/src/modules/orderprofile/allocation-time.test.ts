import { type CreateOrderRequest, ORDER_STATE } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../app.js';
import { orderAllocations, orders } from '../../db/schema.js';
import { ManualClock } from '../../platform/clock.js';
import { formatPlatformTime } from '../../platform/time.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from '../orders/signature.js';
import { OrderProfileService } from './orderprofile.service.js';

/**
 * The order performance page's time to allocate runs from the create call reaching the order service
 * to the moment an account was chosen, so it includes the allocation itself. Its record used to carry
 * the batch's start: the allocation's own work was never in it, and the demo's orders, made on a clock
 * that did not move within an order, all read 0 ms.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('time to allocate', () => {
  it('a running clock: months jump by hand, real milliseconds pass between', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'), { running: true });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const passed = clock.now().getTime() - Date.parse('2026-01-01T00:00:00Z');
    expect(passed).toBeGreaterThanOrEqual(25);
    clock.advance(86_400_000);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(Date.parse('2026-01-02T00:00:00Z') + passed);
    // A still clock stays still.
    const still = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(still.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('measures from the call to the chosen account, and the page reports exactly that', async () => {
    const clock = new ManualClock(t.clock.now(), { running: true });
    const services = buildServices({ config: t.config, database: t.database, clock });
    const start = clock.now();
    const params: CreateOrderRequest & Record<string, string> = {
      sign: '',
      mchId: DEMO_MERCHANT_API.mchId,
      productId: '1001',
      mchOrderNo: 'TIMED-1',
      amount: '123407',
      notifyUrl: 'https://merchant.example/notify',
    };
    params.sign = signParams(params, DEMO_MERCHANT_API.secret, DEMO_MERCHANT_API.signType);
    const { orderCode } = await services.orders.create(params, { ip: '127.0.0.1', baseUrl: 'http://localhost' });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
    expect(order!.state).toBe(ORDER_STATE.allocated);
    const [allocation] = await t.database.db
      .select()
      .from(orderAllocations)
      .where(eq(orderAllocations.orderId, order!.id));
    // The allocation's statements take real time on any database: it shows.
    const took = allocation!.createdAt.getTime() - order!.createdAt.getTime();
    expect(took).toBeGreaterThan(0);

    const end = new Date(clock.now().getTime() + 1_000);
    const profile = await new OrderProfileService({ db: t.database.db, clock, timeZone: t.config.timeZone }).profile({
      startTime: formatPlatformTime(new Date(start.getTime() - 1_000), t.config.timeZone),
      endTime: formatPlatformTime(end, t.config.timeZone),
    });
    expect(profile.overall).toMatchObject({
      created: 1,
      allocated: 1,
      allocateP50Ms: took,
      allocateP90Ms: took,
      allocateP99Ms: took,
    });
  });
});
