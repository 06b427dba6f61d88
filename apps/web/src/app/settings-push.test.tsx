import { SETTINGS_TOPIC, WS_PATH } from '@paydesk/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../i18n';
import { clearToken, setToken } from '../shared/api/session-storage';
import type { SocketLike } from '../shared/ws/socket';
import { ok, stubServer, testUser } from '../test/renderPage';
import { Guard } from './Guard';
import { ServiceBanner } from './layout/ServiceBanner';

/** The console's socket, driven by the test: opened, fed frames, closed. */
class DrivenSocket implements SocketLike {
  static last: DrivenSocket | null = null;
  readonly sent: Array<{ commandType: string; data?: { topic?: string } }> = [];
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  constructor(readonly url: string) {
    DrivenSocket.last = this;
  }
  close() {}
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(topic: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type: 'event', topic, data }) });
  }
}

function renderConsole() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AntApp>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/home']}>
          <Guard>
            <ServiceBanner />
          </Guard>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
}

beforeAll(() => setupI18n('en-US'));
afterEach(() => {
  DrivenSocket.last = null;
  vi.unstubAllGlobals();
  clearToken();
});

describe('settings pushed to an open console', () => {
  it('follows the settings topic and shows the service-paused banner once a push says a setting changed', async () => {
    setToken('T');
    const server = stubServer({ '/v1.0/user/getInfo': ok(testUser({ access: 'merchant' })) });
    vi.stubGlobal('WebSocket', DrivenSocket);
    renderConsole();
    await waitFor(() => expect(DrivenSocket.last?.url).toContain(WS_PATH));
    const socket = DrivenSocket.last!;
    act(() => socket.open());
    expect(socket.sent.filter((c) => c.commandType === 'subscribe').map((c) => c.data?.topic)).toContain(
      SETTINGS_TOPIC,
    );
    expect(screen.queryByTestId('service-paused-banner')).toBeNull();
    expect(server.sent('/v1.0/user/getInfo')).toHaveLength(1);

    // A superAdmin pauses the service somewhere else: the server pushes, the console reads getInfo again.
    server.answers.set('/v1.0/user/getInfo', ok(testUser({ access: 'merchant', serviceEnabled: false })));
    act(() => socket.push(SETTINGS_TOPIC, {}));
    expect((await screen.findByTestId('service-paused-banner')).textContent).toMatch(/paused/i);
    expect(server.sent('/v1.0/user/getInfo')).toHaveLength(2);

    // Events of other topics leave getInfo alone.
    act(() => socket.push('orders', { orderCode: 'X' }));
    expect(server.sent('/v1.0/user/getInfo')).toHaveLength(2);
  });

  it('reads getInfo again after the socket comes back, since a change meanwhile was not pushed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      setToken('T');
      const server = stubServer({ '/v1.0/user/getInfo': ok(testUser({ access: 'merchant' })) });
      vi.stubGlobal('WebSocket', DrivenSocket);
      renderConsole();
      await vi.waitFor(() => expect(DrivenSocket.last).not.toBeNull());
      const first = DrivenSocket.last!;
      act(() => first.open());
      expect(server.sent('/v1.0/user/getInfo')).toHaveLength(1);

      server.answers.set('/v1.0/user/getInfo', ok(testUser({ access: 'merchant', serviceEnabled: false })));
      act(() => first.onclose?.({}));
      await act(async () => vi.advanceTimersByTimeAsync(1_000)); // the first reconnect's backoff
      const second = DrivenSocket.last!;
      expect(second).not.toBe(first);
      act(() => second.open());
      await vi.waitFor(() => expect(server.sent('/v1.0/user/getInfo')).toHaveLength(2));
      vi.useRealTimers();
      expect(await screen.findByTestId('service-paused-banner')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
