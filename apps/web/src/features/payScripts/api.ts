import { type Endpoint, endpoints, routeByPath } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { call } from '../../shared/api/http';
import { useSession } from '../../shared/session/session';

/** Query keys of the pay script pages: a change invalidates `all` (the lists, versions and records). */
export const payScriptKeys = {
  all: ['payScripts'] as const,
  list: ['payScripts', 'list'] as const,
  versions: (id: number) => ['payScripts', 'versions', id] as const,
  records: ['payScripts', 'records'] as const,
  options: ['payScripts', 'options'] as const,
};

/** Every script's id and name, for the records' script filter. */
export function useScriptOptions() {
  return useQuery({
    queryKey: payScriptKeys.options,
    queryFn: () => call(endpoints.payScripts.getPayScriptList, { pageIndex: 1, pageSize: 500 }),
    select: (page) => page.list.map((s) => ({ value: String(s.id), label: s.name })),
  });
}

/** A script's versions, newest first. */
export function useVersions(id: number) {
  return useQuery({
    queryKey: payScriptKeys.versions(id),
    queryFn: () => call(endpoints.payScripts.getPayScriptVersions, { id }),
    select: (answer) => answer.list,
  });
}

/**
 * Whether the signed-in user may call `endpoint` from this page: its role is listed by the contract and
 * the page is not a read-only variant (technical maintenance's `.../readonly` routes).
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
