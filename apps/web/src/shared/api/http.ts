import { Code, type Endpoint, type EndpointInput, type EndpointOutput, type Envelope } from '@paydesk/contract';
import { clearToken, clearToken2, getToken, getToken2, HEARTBEAT_KEY } from './session-storage';

/** A refusal from the server: its body code, message and data, for the caller to show. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** The stable reason key the server sent, if any (translated by the console). */
  get reason(): string | undefined {
    const d = this.data as { reason?: unknown } | null;
    return typeof d?.reason === 'string' ? d.reason : undefined;
  }
}

export interface HttpHooks {
  /** 1003: the session is gone. The client has already cleared the token and the heartbeat key. */
  onSessionExpired(): void;
  /**
   * 1024/1025: ask the user for the second-level password; resolves once token2 is stored, rejects
   * when the user gives up. The call is then retried once.
   */
  requestToken2(code: 1024 | 1025): Promise<void>;
}

let hooks: HttpHooks = {
  onSessionExpired: () => undefined,
  requestToken2: () => Promise.reject(new Error('second-level password dialog not mounted')),
};
let baseUrl = import.meta.env.VITE_API_BASE ?? '';

/** The app mounts the UI behaviours once (navigation, the second-level dialog). */
export function configureHttp(next: Partial<HttpHooks> & { baseUrl?: string }): void {
  hooks = { ...hooks, ...next };
  if (next.baseUrl !== undefined) baseUrl = next.baseUrl;
}

/**
 * Before an action whose endpoint needs token2 opens its form: asks for the second-level password
 * when none is held, so the user is not asked after typing the form. Rejects when the user gives up.
 * (An expired token2 is still asked for again by `call`.)
 */
export async function ensureToken2(): Promise<void> {
  if (!getToken2()) await hooks.requestToken2(Code.token2Required);
}

/** Spec section 5: empty-string values are sent as null (and left out of query strings). */
export function nullifyEmpty(input: unknown): unknown {
  if (input === '') return null;
  if (Array.isArray(input)) return input.map(nullifyEmpty);
  if (input && typeof input === 'object') {
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, nullifyEmpty(v)]));
  }
  return input;
}

function urlOf(endpoint: Endpoint, input: unknown): string {
  if (endpoint.method !== 'GET' || !input || typeof input !== 'object') return `${baseUrl}${endpoint.path}`;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
  }
  const text = query.toString();
  return `${baseUrl}${endpoint.path}${text ? `?${text}` : ''}`;
}

/**
 * The URL of an export endpoint with its filters, for a download link: GET requests authenticate
 * with the session cookie, so the browser downloads the stream itself.
 */
export function exportUrl<E extends Endpoint>(endpoint: E, input: EndpointInput<E>): string {
  return urlOf(endpoint, input);
}

async function send(endpoint: Endpoint, input: unknown): Promise<Envelope<unknown>> {
  const headers: Record<string, string> = {};
  const token = getToken();
  const token2 = getToken2();
  if (token) headers.token = token;
  if (token2) headers.token2 = token2;
  const hasBody = endpoint.method === 'POST' && input !== undefined;
  // A form (an upload) sets its own multipart content type with the boundary.
  const form = input instanceof FormData ? input : null;
  if (hasBody && !form) headers['content-type'] = 'application/json';
  const res = await fetch(urlOf(endpoint, input), {
    method: endpoint.method,
    headers,
    credentials: 'include',
    ...(hasBody ? { body: form ?? JSON.stringify(nullifyEmpty(input)) } : {}),
  });
  try {
    return (await res.json()) as Envelope<unknown>;
  } catch {
    return { code: res.status >= 500 ? Code.internal : res.status, msg: `HTTP ${res.status}`, data: null };
  }
}

/**
 * Calls one endpoint of the contract and answers its `data`. Spec section 8: 1003 clears the session
 * and goes to sign-in; 1024/1025 open the second-level password dialog and retry; any other code is
 * logged and thrown as ApiError for the page to show where the user acted.
 */
export function call<E extends Endpoint>(endpoint: E, input?: EndpointInput<E>): Promise<EndpointOutput<E>> {
  return request(endpoint, input) as Promise<EndpointOutput<E>>;
}

/**
 * Calls a multipart endpoint (an upload) with its form: sent as multipart/form-data, answered and
 * refused exactly as `call` (the session, the second-level password asked and the call sent again).
 */
export function callForm<E extends Endpoint>(endpoint: E, form: FormData): Promise<EndpointOutput<E>> {
  return request(endpoint, form) as Promise<EndpointOutput<E>>;
}

async function request(endpoint: Endpoint, input: unknown): Promise<unknown> {
  let body = await send(endpoint, input);
  if (body.code === Code.token2Required || body.code === Code.token2Expired) {
    clearToken2();
    await hooks.requestToken2(body.code);
    body = await send(endpoint, input);
  }
  if (body.code === Code.success) return body.data;
  if (body.code === Code.sessionExpired) {
    localStorage.removeItem(HEARTBEAT_KEY);
    clearToken();
    hooks.onSessionExpired();
  } else {
    console.error(`[api] ${endpoint.method} ${endpoint.path} -> ${body.code} ${body.msg}`);
  }
  throw new ApiError(body.code, body.msg, body.data);
}
