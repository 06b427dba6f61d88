import { useQueryClient } from '@tanstack/react-query';
import { Spin } from 'antd';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useUserInfo } from '../features/auth/api';
import { clearToken, getToken, onTokenChange } from '../shared/api/session-storage';
import { SessionProvider } from '../shared/session/session';
import { decideNavigation, LOGIN_PATH, type UserState } from './guard';

export function useHasToken(): boolean {
  return useSyncExternalStore(onTokenChange, () => getToken() !== null);
}

/** Turns the guard's decision into navigation, and gives the pages the signed-in session. */
export function Guard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hasToken = useHasToken();
  const info = useUserInfo(hasToken && location.pathname !== LOGIN_PATH);
  const state: UserState = info.isError
    ? { status: 'failed' }
    : info.data
      ? { status: 'ready', access: info.data.access, needsBind: info.data.enableGoogleVerify && !info.data.confirmBind }
      : { status: info.isFetching ? 'loading' : 'idle' };
  const decision = decideNavigation(location.pathname, hasToken, state);

  useEffect(() => {
    if (decision.type !== 'signOut') return;
    // User info failed to load: clear the token (which also stops the notifier and the socket) and sign in again.
    clearToken();
    queryClient.clear();
    navigate(LOGIN_PATH, { replace: true });
  }, [decision.type, navigate, queryClient]);

  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.type !== 'render') return <Spin fullscreen />;
  return <SessionProvider user={info.data ?? null}>{children}</SessionProvider>;
}
