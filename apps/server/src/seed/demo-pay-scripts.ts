import type { Services } from '../app.js';
import type { Actor } from '../platform/audit.js';

/**
 * The demo's pay script, made by technical support as the console does: a UPI intent link with the
 * order's exact amount (from the receiving account's UPI ID), and a parser for a JSON notification.
 * No product uses it until someone chooses one on its page: the demo's payer pages stay as they are.
 */
export const DEMO_PAY_SCRIPT = {
  name: 'UPI intent link',
  hosts: [] as string[],
  code: `// render(order): what the payer page shows for an order of a product that uses this script.
function render(order) {
  const payee = order.payee || {};
  if (!payee.vpa) return { instructions: 'Pay ' + (order.amount / 100).toFixed(2) + ' ' + order.currency + ' to the account below.' };
  const params = [
    'pa=' + encodeURIComponent(payee.vpa),
    'pn=' + encodeURIComponent(payee.accountName || order.merchantName),
    'am=' + (order.amount / 100).toFixed(2),
    'cu=' + order.currency,
    'tn=' + encodeURIComponent(order.orderCode),
  ];
  const link = 'upi://pay?' + params.join('&');
  return {
    payUrl: link,
    qrPayload: link,
    instructions: 'Pay exactly ' + (order.amount / 100).toFixed(2) + ' ' + order.currency + ', then enter the UTR below.',
  };
}

// parseNotification(notification): an upstream's JSON notification as {orderCode, amount, utr, status}.
function parseNotification(notification) {
  const body = JSON.parse(notification.body);
  return {
    orderCode: String(body.orderCode),
    amount: Math.round(Number(body.amount)),
    utr: body.utr ? String(body.utr) : null,
    status: body.status === 'SUCCESS' || body.status === 'paid' ? 'paid' : 'failed',
  };
}
`,
};

export async function seedDemoPayScripts(services: Services, ids: ReadonlyMap<string, number>): Promise<void> {
  const actor: Actor = { userId: ids.get('support') ?? null, account: 'support', role: 'technicalSupport', ip: null };
  await services.payScripts.create(DEMO_PAY_SCRIPT, actor);
}
