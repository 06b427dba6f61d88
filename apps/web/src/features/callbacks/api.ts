import { type Endpoint, routeByPath } from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../shared/session/session';

/**
 * Query keys of the callback pages. A 'callbacks' realtime event refreshes every query under
 * `callbacks` (the session does that): here only `live`, a local tick the pages watch; the lists live
 * under `callbackList` and are refreshed once per burst of events (see useLiveCallbacks).
 */
export const callbackKeys = {
  live: ['callbacks', 'live'] as const,
  lists: ['callbackList'] as const,
  list: ['callbackList', 'callbacks'] as const,
  attemptList: ['callbackList', 'attempts'] as const,
  attemptsOf: (callbackId: number) => ['callbackList', 'attemptsOf', callbackId] as const,
};

/** Events arriving together are handled once: a busy platform records many attempts a second. */
const LIVE_COALESCE_MS = 500;

/**
 * Live updates (DESIGN section 6): while a callback page is open it subscribes to the 'callbacks'
 * topic; each burst of events (and each (re)connection of the socket, for what was published while
 * it was down) refreshes the callback lists once.
 */
export function useLiveCallbacks() {
  const { realtime, realtimeState } = useSession();
  const queryClient = useQueryClient();
  const ticks = useRef(0);
  useEffect(() => {
    realtime.subscribe('callbacks');
    return () => realtime.unsubscribe('callbacks');
  }, [realtime]);
  const live = useQuery({
    queryKey: callbackKeys.live,
    queryFn: () => ++ticks.current,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const seen = useRef<number | undefined>(undefined);
  const refresh = useRef(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: callbackKeys.lists });
    }, LIVE_COALESCE_MS);
  });
  useEffect(() => {
    if (live.data === undefined) return;
    const first = seen.current === undefined;
    const changed = seen.current !== live.data;
    seen.current = live.data;
    if (!first && changed) refresh.current();
  }, [live.data]);
  const previous = useRef(realtimeState);
  useEffect(() => {
    const was = previous.current;
    previous.current = realtimeState;
    if (realtimeState === 'Connected' && was !== 'Connected') refresh.current();
  }, [realtimeState]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

/**
 * Whether the signed-in user may call `endpoint` from this page: its role is listed by the contract
 * and the page is not a read-only variant (technicalMaintenance's `.../readonly` routes).
 */
export function useMay(endpoint: Endpoint): boolean {
  const { user } = useSession();
  const { pathname } = useLocation();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const access = endpoint.access;
  return !readOnly && user !== null && (access === 'public' || access.includes(user.access));
}

/** The route name of the page on screen: saved views and column settings are kept per page. */
export function useRouteName(fallback: string): string {
  const { pathname } = useLocation();
  return routeByPath(pathname)?.name ?? fallback;
}
