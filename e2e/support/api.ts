import { type Endpoint, type EndpointInput, type Envelope, endpoints } from '@paydesk/contract';
import { freshCode } from './codes.js';

export interface ApiAuth {
  token: string;
  token2?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: set-up code reads answers of every shape
type Answer = Envelope<any>;

/** Calls the real server the way the console does; for setting up what a browser test needs. */
export async function apiCall<E extends Endpoint>(
  baseUrl: string,
  endpoint: E,
  input: EndpointInput<E> | undefined,
  auth?: ApiAuth,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (auth?.token) headers.token = auth.token;
  if (auth?.token2) headers.token2 = auth.token2;
  let url = `${baseUrl}${endpoint.path}`;
  let body: string | undefined;
  if (endpoint.method === 'GET') {
    const query = new URLSearchParams(Object.entries(input ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
    url += `?${query}`;
  } else if (input !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input);
  }
  const res = await fetch(url, { method: endpoint.method, headers, body });
  return (await res.json()) as Answer;
}

/** Signs a seeded account in through the API (with token2 when asked). */
export async function apiLogin(baseUrl: string, account: string, secret: string, withToken2 = false): Promise<ApiAuth> {
  const login = await apiCall(baseUrl, endpoints.auth.login, {
    userName: account,
    password: 'demo1234',
    googleCode: await freshCode(secret),
  });
  if (login.code !== 200) throw new Error(`login ${account}: ${login.msg}`);
  const auth: ApiAuth = { token: login.data.token };
  if (!withToken2) return auth;
  const granted = await apiCall(
    baseUrl,
    endpoints.auth.login2,
    { password: 'demo1234', logInReason: 'e2e setup' },
    auth,
  );
  return { ...auth, token2: granted.data.token2 };
}
