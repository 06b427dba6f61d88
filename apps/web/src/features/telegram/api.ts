import { type Role, routeByPath } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { useSession } from '../../shared/session/session';

export const telegramKeys = {
  all: ['telegram'] as const,
  whitelist: ['telegram', 'whitelist'] as const,
  groups: ['telegram', 'groups'] as const,
  parties: ['telegram', 'parties'] as const,
};

/** Whether the caller may change the lists here: one of the endpoint's roles, and not the read-only route. */
export function useCanChange(access: readonly Role[] | 'public'): { readOnly: boolean; canChange: boolean } {
  const { user } = useSession();
  const { pathname } = useLocation();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const role = user?.access;
  const canChange = !readOnly && role !== undefined && access !== 'public' && access.includes(role);
  return { readOnly, canChange };
}

/** A change made from a dialog (add): a toast, the lists reloaded, the dialog closed by the caller. */
export function useTelegramChange<V>(run: (values: V) => Promise<unknown>, onDone: () => void) {
  const { t, i18n } = useTranslation(['telegram', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      void message.success(t('success.added'));
      onDone();
      await queryClient.invalidateQueries({ queryKey: telegramKeys.all });
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });
}
