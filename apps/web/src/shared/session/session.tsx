import { endpoints, SETTINGS_TOPIC, type UserInfo, WS_PATH } from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../api/http';
import { clearToken, getToken, HEARTBEAT_KEY } from '../api/session-storage';
import { setPlatformTimeZone } from '../format/time';
import { RealtimeSocket, type SocketLike, type SocketState } from '../ws/socket';
import { authKeys } from './keys';

/** The topics a query declares it follows (`meta: { liveTopics: [...] }`), besides its key's first part. */
const liveTopicsOf = (meta: Record<string, unknown> | undefined): readonly string[] =>
  Array.isArray(meta?.liveTopics) ? (meta.liveTopics as string[]) : [];

export interface Session {
  user: UserInfo | null;
  logout(): Promise<void>;
  realtime: RealtimeSocket;
  realtimeState: SocketState;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

function socketUrl() {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
}

/**
 * What a signed-in console shares: the user, logout, and the realtime socket (connected while a user
 * is signed in, closed at logout). The socket follows `messages` (the unread badge) and `settings`: a
 * changed system setting reads getInfo again at once, so the service-paused banner, the logo, the
 * system flag, the contact info and the pay password banner follow the switch in every open console;
 * so does a reconnect, since a change made while the socket was down was not pushed.
 */
export function SessionProvider({ user, children }: { user: UserInfo | null; children: ReactNode }) {
  // Before any page renders a time: they are shown, and "today" is computed, in the platform's zone.
  setPlatformTimeZone(user?.timeZone);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation('common');
  const [realtimeState, setRealtimeState] = useState<SocketState>('Uninitialized');

  const realtime = useMemo(() => {
    let connectedBefore = false;
    return new RealtimeSocket({
      url: socketUrl(),
      getToken,
      // The browser's WebSocket has the same members; its handlers take Event where ours take unknown.
      create: (url) => new WebSocket(url) as unknown as SocketLike,
      storage: localStorage,
      onStateChange: (state) => {
        setRealtimeState(state);
        if (state !== 'Connected') return;
        if (connectedBefore) void queryClient.invalidateQueries({ queryKey: authKeys.info });
        connectedBefore = true;
      },
      onSessionExpired: () => {
        // Spec section 8: a websocket 1003 alerts that login has expired.
        void message.warning(t('header.loginExpired'));
        localStorage.removeItem(HEARTBEAT_KEY);
        clearToken();
        queryClient.clear();
        navigate('/login', { replace: true });
      },
      onEvent: (topic) => {
        void queryClient.invalidateQueries({ queryKey: [topic] });
        // A query that follows topics other than its key's first part names them in `meta.liveTopics`.
        void queryClient.invalidateQueries({ predicate: (q) => liveTopicsOf(q.meta).includes(topic) });
        if (topic === SETTINGS_TOPIC) void queryClient.invalidateQueries({ queryKey: authKeys.info });
      },
    });
  }, [message, navigate, queryClient, t]);

  const ready = Boolean(user && !(user.enableGoogleVerify && !user.confirmBind));
  useEffect(() => {
    if (!ready) return;
    realtime.subscribe('messages');
    realtime.subscribe(SETTINGS_TOPIC);
    realtime.connect();
    return () => realtime.close();
  }, [ready, realtime]);

  const logout = useCallback(async () => {
    await call(endpoints.auth.logout).catch(() => undefined);
    realtime.close();
    localStorage.removeItem(HEARTBEAT_KEY);
    clearToken();
    queryClient.clear();
    navigate('/login', { replace: true });
  }, [navigate, queryClient, realtime]);

  const value = useMemo(() => ({ user, logout, realtime, realtimeState }), [user, logout, realtime, realtimeState]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
