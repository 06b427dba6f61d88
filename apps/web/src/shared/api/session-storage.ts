/**
 * Where the console keeps its credentials. The session token is the spec's `token` cookie (1 day),
 * which the server also sets at sign-in; token2 lives for this tab only. The websocket heartbeat key
 * is `currentKey` in local storage (spec section 9).
 */
const TOKEN_COOKIE = 'token';
const TOKEN2_KEY = 'token2';
export const HEARTBEAT_KEY = 'currentKey';

export function getToken(): string | null {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${TOKEN_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(TOKEN_COOKIE.length + 1)) || null : null;
}

export function setToken(token: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=86400; Path=/; SameSite=Strict${secure}`;
}

export function clearToken(): void {
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
  sessionStorage.removeItem(TOKEN2_KEY);
}

export const getToken2 = () => sessionStorage.getItem(TOKEN2_KEY);
export const setToken2 = (token2: string) => sessionStorage.setItem(TOKEN2_KEY, token2);
export const clearToken2 = () => sessionStorage.removeItem(TOKEN2_KEY);
