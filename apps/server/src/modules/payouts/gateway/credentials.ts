import { z } from 'zod';

/**
 * What a payout account of product 2002 (India auto payout) or 2003 (gateway payout) stores to reach
 * its gateway. keySecret and webhookSecret are sealed at rest (platform/crypto.ts sealSecret) and
 * never sent to the console; this adapter receives them opened.
 */
export interface GatewayCredentials {
  /** The API's root, e.g. https://api.razorpay.com (no path after it but an optional prefix). */
  baseUrl: string;
  /** The API key's id (basic auth user, e.g. rzp_live_...). */
  keyId: string;
  /** The API key's secret (basic auth password). */
  keySecret: string;
  /** The secret the gateway signs its webhooks with (X-Razorpay-Signature). */
  webhookSecret: string;
  /** The business account payouts are paid from (the API's account_number). */
  accountNumber: string;
}

/**
 * The credentials as an account form or a stored account gives them. The URL may carry no user,
 * password, query or fragment: a secret in the URL would end up in logs and error texts.
 */
export const gatewayCredentialsSchema = z.object({
  baseUrl: z
    .string()
    .trim()
    .max(500)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'https:' || url.protocol === 'http:') &&
          !url.username &&
          !url.password &&
          !url.search &&
          !url.hash
        );
      } catch {
        return false;
      }
    }, 'an http(s) URL without user, password, query or fragment'),
  keyId: z.string().trim().min(4).max(64),
  keySecret: z.string().min(8).max(256),
  webhookSecret: z.string().min(8).max(256),
  accountNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{5,40}$/, '5 to 40 letters or digits'),
}) satisfies z.ZodType<GatewayCredentials>;
