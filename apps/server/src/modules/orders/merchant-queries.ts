import {
  BALANCE_CURRENCY,
  ORDER_STATE,
  type OrderStateName,
  productById,
  type QueryBalanceAnswer,
  type QueryBalanceRequest,
  type QueryOrderAnswer,
  type QueryOrderRequest,
} from '@paydesk/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { ledgerAccounts, orders } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { apiError } from '../../platform/errors.js';
import { accountCode } from '../ledger/accounts.js';
import type { SignedCalls } from '../merchants/signed-call.js';

export interface MerchantQueriesDeps {
  db: Db;
  clock: Clock;
  signedCalls: SignedCalls;
}

const STATE_NAME = new Map(Object.entries(ORDER_STATE).map(([name, code]) => [code as number, name as OrderStateName]));

/**
 * The merchant API's signed query calls (DESIGN section 7): a merchant whose callback was lost asks
 * for its order or its balance. Each call passes the signed-call checks first; a merchant reads only
 * its own order, and another merchant's is 'no such order' (2012) exactly as an unknown one.
 */
export class MerchantQueries {
  constructor(private readonly deps: MerchantQueriesDeps) {}

  /** POST /v1.0/api/order/query: the order by its mchOrderNo or its orderCode (the schema lets one through). */
  async order(params: QueryOrderRequest, ip: string): Promise<QueryOrderAnswer> {
    const { merchantId } = await this.deps.signedCalls.check(params, ip);
    const [found] = await this.deps.db
      .select({
        order: orders,
        // The id every delivery of the order's callback carries (none before payment). "orders"."id" is
        // written out: drizzle leaves a one-table select's columns bare, and the subquery would read its own.
        notificationId: sql<string | null>`(select c.notification_id from order_callbacks c
          where c.order_id = "orders"."id" and c.deleted_at is null limit 1)`,
      })
      .from(orders)
      .where(
        and(
          eq(orders.merchantId, merchantId),
          params.orderCode !== undefined
            ? eq(orders.orderCode, params.orderCode)
            : eq(orders.merchantOrderNo, String(params.mchOrderNo)),
        ),
      );
    if (!found) throw apiError('orderNotFound');
    const o = found.order;
    return {
      orderCode: o.orderCode,
      mchOrderNo: o.merchantOrderNo,
      productId: o.productId,
      amount: o.apiAmount,
      fee: o.fee * (productById(o.productId)?.apiUnitsPerMinor ?? 1),
      state: o.state,
      stateName: STATE_NAME.get(o.state)!,
      utr: o.paidAt ? o.utr : null,
      createTime: o.createdAt.toISOString(),
      paidTime: o.paidAt ? o.paidAt.toISOString() : null,
      notificationId: found.notificationId,
    };
  }

  /** POST /v1.0/api/balance/query: the merchant's ledger accounts (0 for one no money has touched yet). */
  async balance(params: QueryBalanceRequest, ip: string): Promise<QueryBalanceAnswer> {
    const { merchantId } = await this.deps.signedCalls.check(params, ip);
    const available = accountCode('merchant', merchantId, 'available');
    const frozen = accountCode('merchant', merchantId, 'frozen');
    const rows = await this.deps.db
      .select({ code: ledgerAccounts.code, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.code, [available, frozen]));
    const balanceOf = (code: string) => Number(rows.find((r) => r.code === code)?.balance ?? 0);
    return {
      available: balanceOf(available),
      frozen: balanceOf(frozen),
      currency: BALANCE_CURRENCY,
      time: this.deps.clock.now().toISOString(),
    };
  }
}
