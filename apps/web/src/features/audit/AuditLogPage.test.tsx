import { AUDIT_ACTIONS, type AuditRow } from '@paydesk/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { LANGUAGES } from '../../i18n/language';
import { type Dict, leafKeys } from '../../i18n/types';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import AuditLogPage from './AuditLogPage';
import { auditLocales } from './locales';

const row = (id: number, action: string): AuditRow => ({
  id,
  at: '2026-11-25T10:00:00.000Z',
  userId: 2,
  account: 'admin',
  role: 'admin',
  action,
  target: `order:C${id}`,
  targetName: `C${id}`,
  before: null,
  after: null,
  ip: '127.0.0.1',
});

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('audit log', () => {
  it.each(LANGUAGES)('%s names every action the server audits', (lang) => {
    const names = (auditLocales[lang] as unknown as Record<string, Dict>).actionName!;
    expect(leafKeys(names).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('shows each action in the reader’s language with its code as the title; an unknown one as its code', async () => {
    stubServer({
      '/v1.0/audit/getList': ok({
        list: [row(1, 'orders.confirm'), row(2, 'funds.approve'), row(3, 'legacy.thing')],
        total: 3,
        pageIndex: 1,
        pageSize: 20,
      }),
      '/v1.0/view/getList': ok([]),
    });
    const first = renderPage(<AuditLogPage />, '/system/auditLog', testUser({ access: 'superAdmin' }));
    expect(await screen.findByText('Order: receipt confirmed')).toBeTruthy();
    expect(screen.getByText('Balance change approved').getAttribute('title')).toBe('funds.approve');
    expect(screen.getByText('legacy.thing')).toBeTruthy();
    first.unmount();

    await changeLanguage('zh-TW');
    renderPage(<AuditLogPage />, '/system/auditLog', testUser({ access: 'superAdmin' }));
    expect(await screen.findByText('訂單確認收款')).toBeTruthy();
  });

  it('names who and what by name, and shows a change field by field in the reader’s language', async () => {
    stubServer({
      '/v1.0/audit/getList': ok({
        list: [
          {
            ...row(1, 'merchants.update'),
            target: 'merchant:3',
            targetName: 'Merchant One',
            before: { name: 'Merchant One', enabled: true, notifyUrl: 'https://a.example/n', remark: '' },
            after: { name: 'Merchant One', enabled: false, notifyUrl: 'https://b.example/n', remark: '' },
          },
          { ...row(2, 'auth.login'), target: 'session:s_8f2a', targetName: 'superadmin' },
          { ...row(3, 'callbacks.sendTest'), target: 'https://hook.example/x', targetName: null },
        ],
        total: 3,
        pageIndex: 1,
        pageSize: 20,
      }),
      '/v1.0/view/getList': ok([]),
    });
    const first = renderPage(<AuditLogPage />, '/system/auditLog', testUser({ access: 'superAdmin' }));
    const targets = await screen.findAllByTestId('audit-target');
    expect(targets.map((el) => el.textContent)).toEqual(['Merchant: Merchant One', 'Session: superadmin']);
    // The stored target stays at hand; no internal id is the text.
    expect(targets[1]!.getAttribute('title')).toBe('session:s_8f2a');
    expect(screen.getByText('https://hook.example/x')).toBeTruthy();
    // Only what changed: enabled and the notify URL, not the unchanged name or remark.
    const change = screen.getByTestId('audit-change');
    const cells = [...change.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.children].map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      ['Enabled', 'Yes', 'No'],
      ['Notify URL', 'https://a.example/n', 'https://b.example/n'],
    ]);
    expect(change.textContent).not.toContain('{');
    first.unmount();

    await changeLanguage('zh-CN');
    renderPage(<AuditLogPage />, '/system/auditLog', testUser({ access: 'superAdmin' }));
    expect((await screen.findAllByTestId('audit-target'))[0]!.textContent).toBe('商户：Merchant One');
    const zh = screen.getByTestId('audit-change');
    expect([...zh.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['字段', '变更前', '变更后']);
    expect(zh.querySelector('tbody th')!.textContent).toBe('启用');
    expect(zh.querySelector('tbody td')!.textContent).toBe('是');
  });
});
