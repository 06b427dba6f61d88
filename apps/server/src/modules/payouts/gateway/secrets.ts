import type { SecretDetailField } from '@paydesk/contract';
import { openSecret, sealSecret } from '../../../platform/crypto.js';

/**
 * A gateway payout account's two secrets, sealed together in `resources.secret_sealed` as one JSON
 * object: the API key's secret and the webhook secret. Accounts saved before the webhook secret
 * existed sealed the key secret alone, as plain text: it opens as the key secret, with no webhook
 * secret (its webhooks are refused until one is saved; status polls still work).
 */
export type GatewaySecrets = Partial<Record<SecretDetailField, string>>;

export function sealGatewaySecrets(secrets: GatewaySecrets, key: Buffer): string {
  return sealSecret(JSON.stringify({ keySecret: secrets.keySecret, webhookSecret: secrets.webhookSecret }), key);
}

export function openGatewaySecrets(sealed: string | null, key: Buffer): GatewaySecrets {
  if (sealed === null) return {};
  const plain = openSecret(sealed, key);
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain);
  } catch {
    return { keySecret: plain };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { keySecret: plain };
  const { keySecret, webhookSecret } = parsed as Record<string, unknown>;
  return {
    ...(typeof keySecret === 'string' ? { keySecret } : {}),
    ...(typeof webhookSecret === 'string' ? { webhookSecret } : {}),
  };
}
