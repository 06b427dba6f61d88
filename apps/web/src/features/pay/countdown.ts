/**
 * The payer page's countdown runs on the server's clock, not the phone's: the answer carries the
 * server's `now`; the time left is `expiresAt - now` less what the phone measured since the answer
 * arrived (`receivedAt`, read from the phone when the answer came). A phone set to another day or
 * time zone still counts down correctly.
 */
export function remainingMs(
  order: { expiresAt: string | null; now: string; receivedAt: number },
  phoneNow: number,
): number | null {
  if (order.expiresAt === null) return null;
  const expires = Date.parse(order.expiresAt);
  const serverNow = Date.parse(order.now);
  if (Number.isNaN(expires) || Number.isNaN(serverNow)) return null;
  const elapsed = Math.max(0, phoneNow - order.receivedAt);
  return Math.max(0, expires - serverNow - elapsed);
}

/** 905_000 -> '15:05'; 3_725_000 -> '1:02:05' (seconds rounded up, so 0:00 means the time is over). */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** A USDT amount in micro-units (1/1,000,000) as the plain text a wallet takes: 12345678 -> '12.345678'. */
export function usdtText(micro: number): string {
  const whole = Math.floor(micro / 1_000_000);
  return `${whole}.${String(micro % 1_000_000).padStart(6, '0')}`;
}
