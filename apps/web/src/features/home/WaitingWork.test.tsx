import type { Role } from '@paydesk/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken } from '../../shared/api/session-storage';
import { LiveSocket } from '../../test/liveSocket.js';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { WaitingWork, workLink } from './WaitingWork';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const render = (access: Role, items: Array<{ key: string; count: number }>) => {
  const server = stubServer({ '/v1.0/todo/counts': ok({ items }) });
  renderPage(<WaitingWork />, '/home', testUser({ access }));
  return server;
};

describe('the work waiting on the home page', () => {
  it('staff: each item with its count, linked to its tab of the to-do page while something waits', async () => {
    render('admin', [
      { key: 'ordersToConfirm', count: 3 },
      { key: 'payoutExceptions', count: 1 },
      { key: 'failedCallbacks', count: 0 },
    ]);
    const orders = await screen.findByTestId('waiting-ordersToConfirm');
    expect(orders.textContent).toContain('Collection orders to confirm');
    expect(orders.textContent).toContain('3');
    expect(within(orders).getByRole('link').getAttribute('href')).toBe('/todo/list?item=ordersToConfirm');
    expect(within(screen.getByTestId('waiting-payoutExceptions')).getByRole('link').getAttribute('href')).toBe(
      '/todo/list?item=payoutExceptions',
    );
    expect(screen.getByTestId('waiting-all').getAttribute('href')).toBe('/todo/list');
    // Where the to-do page's rows lead: the list page of the work, filtered to its state or the record.
    expect(workLink('payoutExceptions', 'admin')).toBe('/payProxyOrder/list?payoutStatus=9');
    expect(workLink('payoutExceptions', 'admin', 'P1')).toBe('/payProxyOrder/list?orderCode=P1');
    // Nothing waiting: the count, no link.
    expect(within(screen.getByTestId('waiting-failedCallbacks')).queryByRole('link')).toBeNull();
  });

  it('a supplier’s links are its own pages: the claim queue, its payouts in progress', async () => {
    render('supplier', [
      { key: 'payoutsToClaim', count: 2 },
      { key: 'payoutsToPay', count: 1 },
    ]);
    const claim = await screen.findByTestId('waiting-payoutsToClaim');
    expect(within(claim).getByRole('link').getAttribute('href')).toBe('/payProxyOrder/list/supplier?tab=queue');
    // No to-do page for a supplier: its home card is the whole of it.
    expect(screen.queryByTestId('waiting-all')).toBeNull();
    expect(workLink('payoutsToPay', 'supplier')).toBe('/payProxyOrder/list/supplier?payoutStatus=2');
    expect(workLink('ordersToConfirm', 'customerService')).toBe('/order/list/customerService?orderStatusId=1');
    // A page the role cannot open is no link.
    expect(workLink('payoutsToClaim', 'admin')).toBeNull();
  });

  it('a merchant and technical support have no waiting work and make no call', async () => {
    for (const access of ['merchant', 'technicalSupport'] as const) {
      const server = render(access, []);
      await new Promise((r) => setTimeout(r, 50));
      expect(server.sent('/v1.0/todo/counts')).toHaveLength(0);
      expect(screen.queryByTestId('home-waiting')).toBeNull();
      vi.unstubAllGlobals();
    }
  });

  it('live: an event of a topic it follows reads the counts again', async () => {
    const server = stubServer({ '/v1.0/todo/counts': ok({ items: [{ key: 'payoutsToConfirm', count: 1 }] }) });
    vi.stubGlobal('WebSocket', LiveSocket);
    setToken('session-token');
    renderPage(<WaitingWork />, '/home', testUser({ access: 'admin' }));
    await screen.findByTestId('waiting-payoutsToConfirm');
    const socket = LiveSocket.last!;
    act(() => socket.open());
    expect(socket.subscribed()).toEqual(expect.arrayContaining(['orders', 'payouts', 'payoutBatches', 'callbacks']));
    const before = server.sent('/v1.0/todo/counts').length;
    server.answers.set('/v1.0/todo/counts', ok({ items: [{ key: 'payoutsToConfirm', count: 2 }] }));
    act(() => socket.push('payoutBatches', { batchId: 1 }));
    await waitFor(() => expect(screen.getByTestId('waiting-payoutsToConfirm').textContent).toContain('2'));
    expect(server.sent('/v1.0/todo/counts').length).toBeGreaterThan(before);
  });

  it('says when the counts could not be read, in the reader’s language', async () => {
    await changeLanguage('zh-CN');
    stubServer({ '/v1.0/todo/counts': { code: 500, msg: 'boom', data: null } });
    renderPage(<WaitingWork />, '/home', testUser({ access: 'admin' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('待办')).toBeTruthy();
  });
});
