/**
 * Where the console keeps its credentials. The session token is the spec's `token` cookie (1 day),
 * which the server also sets at sign-in; token2 lives for this tab only. The websocket heartbeat key
 * is `currentKey` in local storage (spec section 9).
 */
const TOKEN_COOKIE = 'token';
const TOKEN2_KEY = 'token2';
export const HEARTBEAT_KEY = 'currentKey';

/** Fired on this window when the token appears or goes, so the guard re-renders. */
const TOKEN_EVENT = 'paydesk:token';
export function onTokenChange(listener: () => void): () => void {
  window.addEventListener(TOKEN_EVENT, listener);
  return () => window.removeEventListener(TOKEN_EVENT, listener);
}
const tokenChanged = () => window.dispatchEvent(new Event(TOKEN_EVENT));

export function getToken(): string | null {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${TOKEN_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(TOKEN_COOKIE.length + 1)) || null : null;
}

export function setToken(token: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the spec's token cookie; the async Cookie Store API is not in every browser the console supports
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=86400; Path=/; SameSite=Strict${secure}`;
  tokenChanged();
}

export function clearToken(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
  sessionStorage.removeItem(TOKEN2_KEY);
  tokenChanged();
}

export const getToken2 = () => sessionStorage.getItem(TOKEN2_KEY);
export const setToken2 = (token2: string) => sessionStorage.setItem(TOKEN2_KEY, token2);
export const clearToken2 = () => sessionStorage.removeItem(TOKEN2_KEY);
