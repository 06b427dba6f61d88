import type { UserInfo } from '@paydesk/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { SessionProvider } from '../shared/session/session';

/** A signed-in user for page tests; override what the test is about (usually `access`). */
export function testUser(over: Partial<UserInfo> = {}): UserInfo {
  return {
    userId: 2,
    userName: 'admin',
    account: 'admin',
    name: 'Admin',
    access: 'admin',
    agent: false,
    token2Valid: false,
    token2ExpiresAt: null,
    enableGoogleVerify: true,
    confirmBind: true,
    allowModify: true,
    showLogo: true,
    systemFlag: 'PayDesk',
    serviceEnabled: true,
    pictureQueryEnabled: false,
    contactInfo: '',
    payPasswordRequired: false,
    hasPayPassword: false,
    apiUrl: '',
    timeZone: 'Asia/Kolkata',
    ...over,
  };
}

/** The realtime socket of SessionProvider: a socket that never connects. */
export class FakeWebSocket {
  readyState = 0;
  onopen = null;
  onclose = null;
  onerror = null;
  onmessage = null;
  send() {}
  close() {}
}

/** Pages under SessionProvider open the realtime socket: give them one that stays silent. */
export function stubWebSocket() {
  vi.stubGlobal('WebSocket', FakeWebSocket);
}

export interface Answer {
  code: number;
  msg: string;
  data: unknown;
}

/**
 * Stubs `fetch` (answers by path; unknown paths answer 500) and `WebSocket`. Returns the requests
 * seen and the answer table to fill. Undo with `vi.unstubAllGlobals()`.
 */
export function stubServer(initial: Record<string, Answer> = {}) {
  const requests: Array<{ path: string; url: string; body: unknown }> = [];
  const answers = new Map<string, Answer>(Object.entries(initial));
  stubWebSocket();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.split('?')[0]!;
      // An upload's form is kept as sent; a JSON body is read back.
      const body = init.body instanceof FormData ? init.body : init.body ? JSON.parse(String(init.body)) : null;
      requests.push({ path, url, body });
      const answer = answers.get(path) ?? { code: 500, msg: `no answer queued for ${path}`, data: null };
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return {
    requests,
    answers,
    sent: (path: string) => requests.filter((r) => r.path === path),
  };
}

export const ok = (data: unknown): Answer => ({ code: 200, msg: 'success', data });
export const pageOf = (list: unknown[]): Answer => ok({ list, total: list.length, pageIndex: 1, pageSize: 20 });

/** Renders a page at a URL inside the console's providers: antd App, TanStack Query, router, session. */
export function renderPage(page: ReactNode, path: string, user: UserInfo | null = testUser()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AntApp>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <SessionProvider user={user}>{page}</SessionProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
}
