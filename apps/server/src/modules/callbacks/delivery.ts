import { CALLBACK_RESPONSE_LIMIT } from '@paydesk/contract';

/** What one POST of a callback sent and got back. */
export interface Exchange {
  status: number | null;
  /** The answer, at most CALLBACK_RESPONSE_LIMIT bytes of it. */
  responseBody: string | null;
  /** Why it does not count as delivered (null when it does). */
  error: string | null;
  durationMs: number;
  /** HTTP 2xx and the body SUCCESS, trimmed, in any case. */
  succeeded: boolean;
}

/** More than this is not a SUCCESS answer: reading stops here. */
const READ_LIMIT = 64 * 1024;

async function readUpTo(res: Response, limit: number): Promise<{ bytes: Buffer; complete: boolean }> {
  if (!res.body) return { bytes: Buffer.alloc(0), complete: true };
  const reader = res.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), complete: true };
    chunks.push(Buffer.from(value));
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), complete: false };
    }
  }
}

function describeError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = e?.cause;
  // fetch refuses the ports of the 'bad ports' list (25, 110, ...) before connecting.
  if (cause?.message === 'bad port') return 'this port may not be called (bad port)';
  if (cause?.message)
    return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  return e?.message ?? String(error);
}

/**
 * POSTs a form body to `url` and reads the answer: no redirect is followed (a 3xx is a failed
 * attempt), the whole exchange is bounded by `timeoutMs`, and at most 64 KiB of the answer is read.
 */
export async function postForm(url: string, body: string, timeoutMs: number): Promise<Exchange> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'user-agent': 'PayDesk-Callback/1.0',
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { bytes, complete } = await readUpTo(res, READ_LIMIT);
    const text = bytes.toString('utf8');
    const is2xx = res.status >= 200 && res.status < 300;
    const succeeded = is2xx && complete && text.trim().toUpperCase() === 'SUCCESS';
    let error: string | null = null;
    if (!succeeded) {
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        error = `HTTP ${res.status}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`;
      } else if (!is2xx) error = `HTTP ${res.status}`;
      else error = 'the answer is not SUCCESS';
    }
    return {
      status: res.status,
      responseBody: bytes.subarray(0, CALLBACK_RESPONSE_LIMIT).toString('utf8'),
      error,
      durationMs: elapsed(),
      succeeded,
    };
  } catch (error) {
    return {
      status: null,
      responseBody: null,
      error: describeError(error, timeoutMs),
      durationMs: elapsed(),
      succeeded: false,
    };
  }
}
