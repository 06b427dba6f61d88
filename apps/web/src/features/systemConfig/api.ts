import { type SettingAnswer, type SettingKey, setSettingEndpoint } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api/http';
import { authKeys } from '../../shared/session/keys';
import { typeOf } from './values';

/**
 * Query keys of the global config page; a change invalidates `systemConfigKeys.all`. They live under
 * the realtime topic `settings`, so a change made elsewhere (another admin, another process) refreshes
 * an open page too.
 */
export const systemConfigKeys = {
  all: ['settings', 'systemConfig'] as const,
  list: ['settings', 'systemConfig', 'list'] as const,
};

export interface SettingChange {
  key: SettingKey;
  /** A switch's new state, a secret's new value (null clears it), any other type's value. */
  value: unknown;
}

/**
 * Changes one setting with its setX ({enable} for a switch, {value} otherwise; the second-level
 * password is asked by the HTTP client on 1024). Then the page and the signed-in user's info (the
 * service banner, the system flag, the contact info) are read again.
 */
export function useSetSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: SettingChange) =>
      call(
        setSettingEndpoint(key),
        (typeOf(key).kind === 'switch' ? { enable: value } : { value }) as never,
      ) as Promise<SettingAnswer<SettingKey>>,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemConfigKeys.all }),
        queryClient.invalidateQueries({ queryKey: authKeys.info }),
      ]),
  });
}
