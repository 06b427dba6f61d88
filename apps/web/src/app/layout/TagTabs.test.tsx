import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { routeLocales } from '../routes.locales';
import { TagTabs } from './TagTabs';

const names = routeLocales['en-US'].route;

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderAt(path: string) {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={[path]}>
        <TagTabs />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </AntApp>,
  );
}

beforeAll(() => setupI18n('en-US'));
beforeEach(() => sessionStorage.clear());

describe('TagTabs', () => {
  it('is a navigation of links to the open pages, the current one marked, not an ARIA tab list', async () => {
    sessionStorage.setItem('tagTabs', JSON.stringify([{ path: '/system/auditLog', name: 'auditLog' }]));
    renderAt('/system/onlineUsers');
    const nav = screen.getByRole('navigation', { name: 'Open pages' });
    await waitFor(() => expect(nav.querySelectorAll('a')).toHaveLength(3));
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.getByRole('link', { name: names.onlineUsers }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: names.home }).getAttribute('aria-current')).toBeNull();
    // Every closable tab has a named close button; home has none; the bar has exactly one menu button.
    expect(screen.getByRole('button', { name: `Close “${names.auditLog}”` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Close “${names.home}”` })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Tab menu' })).toHaveLength(1);
  });

  it('a tab link opens its page; its close button closes it and opens the tab after it', async () => {
    sessionStorage.setItem('tagTabs', JSON.stringify([{ path: '/system/auditLog', name: 'auditLog' }]));
    renderAt('/system/onlineUsers');
    fireEvent.click(await screen.findByRole('link', { name: names.auditLog }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/system/auditLog'));
    fireEvent.click(screen.getByRole('button', { name: `Close “${names.auditLog}”` }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/system/onlineUsers'));
    expect(screen.queryByRole('link', { name: names.auditLog })).toBeNull();
  });

  it('the bar menu lists every open page and the close actions', async () => {
    renderAt('/system/onlineUsers');
    fireEvent.click(screen.getByRole('button', { name: 'Tab menu' }));
    const menu = await screen.findByRole('menu');
    const items = [...menu.querySelectorAll('[role=menuitem]')].map((el) => el.textContent);
    expect(items).toEqual([names.home, names.onlineUsers, 'Close others', 'Close all']);
  });
});
