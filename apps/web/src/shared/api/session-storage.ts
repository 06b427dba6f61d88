/**
 * Where the console keeps its credentials. The session token comes in the login answer and goes out
 * as the `token` header; it is kept in local storage (shared by the tabs, like the spec's 1-day cookie)
 * with its expiry. The server also sets the `token` cookie at sign-in, HttpOnly: no script can read it,
 * and it only authenticates GET downloads (exports), which the browser sends with it. token2 lives
 * for this tab only. The websocket heartbeat key is `currentKey` in local storage (spec section 9).
 */
const TOKEN_KEY = 'token';
const TOKEN2_KEY = 'token2';
export const HEARTBEAT_KEY = 'currentKey';
/** The token cookie's lifetime (spec: 1 day); the server ends the session then anyway. */
const TOKEN_LIFETIME_MS = 86_400_000;

/** Fired on this window when the token appears or goes, so the guard re-renders. */
const TOKEN_EVENT = 'paydesk:token';
export function onTokenChange(listener: () => void): () => void {
  // Another tab signing in or out changes the shared token too: the storage event tells this one.
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY || event.key === null) listener();
  };
  window.addEventListener(TOKEN_EVENT, listener);
  window.addEventListener('storage', fromOtherTab);
  return () => {
    window.removeEventListener(TOKEN_EVENT, listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}
const tokenChanged = () => window.dispatchEvent(new Event(TOKEN_EVENT));

export function getToken(): string | null {
  const raw = localStorage.getItem(TOKEN_KEY);
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as { token?: unknown; expiresAt?: unknown };
    if (typeof saved.token === 'string' && typeof saved.expiresAt === 'number' && saved.expiresAt > Date.now()) {
      return saved.token || null;
    }
  } catch {
    // Not ours (an older console's value): no token.
  }
  return null;
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, JSON.stringify({ token, expiresAt: Date.now() + TOKEN_LIFETIME_MS }));
  tokenChanged();
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(TOKEN2_KEY);
  tokenChanged();
}

export const getToken2 = () => sessionStorage.getItem(TOKEN2_KEY);
export const setToken2 = (token2: string) => sessionStorage.setItem(TOKEN2_KEY, token2);
export const clearToken2 = () => sessionStorage.removeItem(TOKEN2_KEY);
