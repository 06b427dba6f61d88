import { endpoints, type UserInfo, WS_PATH } from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../api/http';
import { clearToken, getToken, HEARTBEAT_KEY } from '../api/session-storage';
import { RealtimeSocket, type SocketLike, type SocketState } from '../ws/socket';

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
 * is signed in, closed at logout).
 */
export function SessionProvider({ user, children }: { user: UserInfo | null; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation('common');
  const [realtimeState, setRealtimeState] = useState<SocketState>('Uninitialized');

  const realtime = useMemo(
    () =>
      new RealtimeSocket({
        url: socketUrl(),
        getToken,
        // The browser's WebSocket has the same members; its handlers take Event where ours take unknown.
        create: (url) => new WebSocket(url) as unknown as SocketLike,
        storage: localStorage,
        onStateChange: setRealtimeState,
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
        },
      }),
    [message, navigate, queryClient, t],
  );

  const ready = Boolean(user && !(user.enableGoogleVerify && !user.confirmBind));
  useEffect(() => {
    if (!ready) return;
    realtime.subscribe('messages');
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
