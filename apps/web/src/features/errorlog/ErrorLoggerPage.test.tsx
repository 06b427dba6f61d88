import type { ErrorLogRow } from '@paydesk/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { pageOf, renderPage, stubServer } from '../../test/renderPage';
import ErrorLoggerPage from './ErrorLoggerPage';

const ROW: ErrorLogRow = {
  id: 3,
  userId: 8,
  account: 'merchant1',
  page: '/order/list',
  message: "TypeError: Cannot read properties of undefined (reading 'amount')",
  stack: 'TypeError: Cannot read properties of undefined\n    at OrderList (OrderList.tsx:42:17)',
  userAgent: 'Mozilla/5.0',
  ip: '10.0.0.8',
  createdAt: '2024-05-01T08:00:00.000Z',
};

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  stubServer({ '/v1.0/errorLog/getList': pageOf([ROW]) });
});
afterEach(() => vi.unstubAllGlobals());

describe('ErrorLoggerPage', () => {
  it('lists script errors and expands a row to its stack', async () => {
    const user = userEvent.setup();
    const { container } = renderPage(<ErrorLoggerPage />, '/error_logger_page');
    expect(await screen.findByText('/order/list')).toBeTruthy();
    expect(container.querySelector('pre')).toBeNull();
    await user.click(screen.getByTestId('errorlog-stack-3'));
    expect(container.querySelector('pre')?.textContent).toBe(ROW.stack);
    await user.click(screen.getByTestId('errorlog-stack-3'));
    expect(container.querySelector('pre')).toBeNull();
  });
});
