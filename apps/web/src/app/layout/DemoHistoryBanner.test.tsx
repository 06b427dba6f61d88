import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer } from '../../test/renderPage';
import { DemoHistoryBanner } from './DemoHistoryBanner';

const PATH = '/v1.0/system/demoHistory';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('DemoHistoryBanner', () => {
  it('tells a newcomer the history is being made, follows its progress, and goes when it is done', async () => {
    const server = stubServer({ [PATH]: ok({ state: 'making', made: 350, planned: 2_500 }) });
    renderPage(<DemoHistoryBanner pollMs={30} />, '/home');
    const banner = await screen.findByTestId('demo-history-banner');
    expect(banner.textContent).toContain('350 of about 2,500 orders');
    expect(banner.getAttribute('role')).toBe('status');

    server.answers.set(PATH, ok({ state: 'making', made: 1_200, planned: 2_500 }));
    await waitFor(() => expect(screen.getByTestId('demo-history-banner').textContent).toContain('1,200 of about'));
    server.answers.set(PATH, ok({ state: 'done', made: 2_531, planned: 2_500 }));
    await waitFor(() => expect(screen.queryByTestId('demo-history-banner')).toBeNull());
    // Done: the console stops asking.
    const asked = server.sent(PATH).length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.sent(PATH).length).toBe(asked);
  });

  it('speaks the reader’s language', async () => {
    stubServer({ [PATH]: ok({ state: 'making', made: 50, planned: 2_500 }) });
    await changeLanguage('zh-TW');
    renderPage(<DemoHistoryBanner />, '/home');
    expect((await screen.findByTestId('demo-history-banner')).textContent).toContain('正在背景產生示範訂單歷史');
    await changeLanguage('zh-CN');
    await waitFor(() =>
      expect(screen.getByTestId('demo-history-banner').textContent).toContain('已生成 50 笔，共约 2,500 笔'),
    );
  });

  it('shows nothing without a history in the making (DEMO_ORDERS=0, done, or cut short)', async () => {
    for (const state of ['none', 'done', 'interrupted']) {
      const server = stubServer({ [PATH]: ok({ state, made: 0, planned: 0 }) });
      const { unmount } = renderPage(<DemoHistoryBanner pollMs={30} />, '/home');
      await waitFor(() => expect(server.sent(PATH).length).toBe(1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(screen.queryByTestId('demo-history-banner')).toBeNull();
      expect(server.sent(PATH).length).toBe(1);
      unmount();
      vi.unstubAllGlobals();
    }
  });
});
