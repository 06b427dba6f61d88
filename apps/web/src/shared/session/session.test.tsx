import { WS_PATH } from '@paydesk/contract';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { FakeWebSocket, renderPage, testUser } from '../../test/renderPage';

beforeAll(() => setupI18n('en-US'));
afterEach(() => vi.unstubAllGlobals());

describe('SessionProvider', () => {
  it('opens the realtime socket at the path the server listens on (the contract’s WS_PATH)', () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'WebSocket',
      class extends FakeWebSocket {
        constructor(url: string) {
          super();
          urls.push(url);
        }
      },
    );
    renderPage(<p>page</p>, '/home', testUser());
    expect(urls).toEqual([`ws://${location.host}${WS_PATH}`]);
  });

  it('opens no socket before the user has confirmed the authenticator', () => {
    const created = vi.fn();
    vi.stubGlobal(
      'WebSocket',
      class extends FakeWebSocket {
        constructor() {
          super();
          created();
        }
      },
    );
    renderPage(<p>page</p>, '/googleVerify', testUser({ confirmBind: false }));
    expect(created).not.toHaveBeenCalled();
  });
});
