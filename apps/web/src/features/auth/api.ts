import { endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api/http';
import { authKeys } from '../../shared/session/keys';

/** The signed-in user, loaded once per sign-in (spec section 2); never retried: a failure signs out. */
export function useUserInfo(enabled: boolean) {
  return useQuery({
    queryKey: authKeys.info,
    queryFn: () => call(endpoints.auth.getInfo),
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}
