import { endpoints, type SessionRow, type UserInfo } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';

/** The personal centre's query keys. `userInfo` is the signed-in user's (features/auth/api.ts owns it). */
export const profileKeys = {
  userInfo: ['auth', 'info'] as const,
  sessions: (userId: number) => ['profile', 'sessions', userId] as const,
};

const SESSIONS_PAGE = 100;
/** A person has a few sessions; the cap only keeps a wrong answer from looping. */
const MAX_PAGES = 20;

/**
 * One's own sessions. For staff getSessions lists everyone's, so the rows are narrowed by account on
 * the server (a substring match) and to one's own userId here, paging through 100 at a time.
 */
export async function fetchMySessions(user: Pick<UserInfo, 'userId' | 'account'>): Promise<SessionRow[]> {
  const mine: SessionRow[] = [];
  for (let pageIndex = 1; pageIndex <= MAX_PAGES; pageIndex++) {
    const page = await call(endpoints.auth.getSessions, { pageIndex, pageSize: SESSIONS_PAGE, account: user.account });
    mine.push(...page.list.filter((row) => row.userId === user.userId));
    if (page.list.length < SESSIONS_PAGE || pageIndex * SESSIONS_PAGE >= page.total) break;
  }
  return mine;
}

export function useMySessions(user: UserInfo) {
  return useQuery({ queryKey: profileKeys.sessions(user.userId), queryFn: () => fetchMySessions(user) });
}

/** Shows a server refusal with antd's message, in the reader's language (shared errorText). */
export function useShowError() {
  const { message } = App.useApp();
  const { i18n } = useTranslation('profile');
  return useCallback((e: Error) => void message.error(errorText(i18n, e)), [message, i18n]);
}
