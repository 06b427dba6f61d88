import { createHmac } from 'node:crypto';
import { endpoints, signingString } from '@paydesk/contract';
import { expect } from 'vitest';

/** merchant1's demo API credentials (printed at first start). */
export const DEMO_MERCHANT = { mchId: '10001', secret: 'demo-secret-merchant1' };

/** The merchant API's HMAC-SHA256 signature of these parameters (DESIGN section 6). */
export const signOf = (params: Record<string, string>, secret = DEMO_MERCHANT.secret) =>
  createHmac('sha256', secret).update(signingString(params, secret), 'utf8').digest('hex').toUpperCase();

export interface CreatedOrder {
  orderCode: string;
  state: number;
  payUrl: string;
  payee: { kind: string; vpa?: string; upiLink?: string; qrCode?: string | null } | null;
}

let sequence = 0;

/**
 * POST /v1.0/api/order/create as merchant1's server does it, signed; answers the order it created
 * (a refusal fails the test). Defaults: product 1001, a fresh mchOrderNo, subject 'Top-up'.
 */
export async function createDemoOrder(
  baseUrl: string,
  params: { amount: string } & Record<string, string>,
): Promise<CreatedOrder> {
  sequence += 1;
  const all = {
    mchId: DEMO_MERCHANT.mchId,
    productId: '1001',
    mchOrderNo: `E2E${Date.now()}${sequence}`,
    subject: 'Top-up',
    ...params,
  };
  const res = await fetch(`${baseUrl}${endpoints.orders.create.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...all, sign: signOf(all) }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: CreatedOrder };
  expect(body.code, body.msg).toBe(200);
  return body.data;
}
