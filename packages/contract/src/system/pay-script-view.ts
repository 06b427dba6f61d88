import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';

/**
 * What a pay script's `render(order)` returns and the payer page shows (system/pay-scripts.ts), kept
 * apart from the rest of the area so the payer page loads only this.
 */
export const PAY_SCRIPT_VIEW_TEXTS = {
  payUrl: 'payUrl must be an http(s) or app link (upi://, weixin://, ...), not javascript:, data: or file:',
  oneOf: 'render must return at least one of payUrl, qrPayload, instructions',
} as const;

/** Schemes a pay link may not have: they run code in the page or read the phone's files. */
const UNSAFE_SCHEME = /^(?:javascript|data|vbscript|file|blob|about):/i;
const payUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2048, PAY_SCRIPT_VIEW_TEXTS.payUrl)
  .refine((v) => /^[a-z][a-z0-9+.-]*:/i.test(v) && !UNSAFE_SCHEME.test(v), PAY_SCRIPT_VIEW_TEXTS.payUrl);

/** What `render` must return: what the payer page shows above the receiving account. */
export const payScriptViewSchema = z
  .strictObject({
    /** A link the payer opens to pay (https, or an app's scheme such as upi://). */
    payUrl: payUrlSchema.optional(),
    /** Text the payer page shows as a QR code. */
    qrPayload: z.string().min(1).max(2048).optional(),
    /** Plain text shown to the payer (no HTML). */
    instructions: z.string().min(1).max(2000).optional(),
  })
  .refine((v) => v.payUrl !== undefined || v.qrPayload !== undefined || v.instructions !== undefined, {
    message: PAY_SCRIPT_VIEW_TEXTS.oneOf,
  });
export type PayScriptView = z.infer<typeof payScriptViewSchema>;

/**
 * The payer page's part (public, kept apart so the payer page loads no other schema of this area):
 * what the active script of the order's product renders for it, while the order awaits payment.
 */
export const payerScriptEndpoints = {
  payerScriptView: defineEndpoint({
    method: 'GET',
    path: '/v1.0/pay/scriptView',
    summary:
      'Payer page: what the pay script of the order’s product shows (pay link, QR payload, instructions); null when none applies',
    input: z.strictObject({ orderCode: z.string().trim().min(1).max(40, 'no such order code') }),
    output: z.object({ view: payScriptViewSchema.nullable() }),
    example: { orderCode: 'C26112312000012345678' },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 60, timeWindowMs: 60_000 },
  }),
} as const satisfies EndpointGroup;
