import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../i18n';
import { getToken, setToken } from '../shared/api/session-storage';
import { ok, stubServer, testUser } from '../test/renderPage';
import { Guard } from './Guard';

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AntApp>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              path="*"
              element={
                <Guard>
                  <Where />
                </Guard>
              }
            />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
}

beforeAll(() => setupI18n('en-US'));
afterEach(() => vi.unstubAllGlobals());

describe('Guard component', () => {
  it('without a token, renders the sign-in path only', async () => {
    stubServer();
    renderAt('/system/auditLog');
    expect((await screen.findByTestId('where')).textContent).toBe('/login');
  });

  it('loads the user info once and renders a permitted page', async () => {
    setToken('T');
    const server = stubServer({ '/v1.0/user/getInfo': ok(testUser({ access: 'admin' })) });
    renderAt('/system/auditLog');
    expect((await screen.findByTestId('where')).textContent).toBe('/system/auditLog');
    expect(server.sent('/v1.0/user/getInfo')).toHaveLength(1);
  });

  it('sends a role to the 401 page for a route its access list does not permit', async () => {
    setToken('T');
    stubServer({ '/v1.0/user/getInfo': ok(testUser({ access: 'merchant' })) });
    renderAt('/system/auditLog');
    expect((await screen.findByTestId('where')).textContent).toBe('/401');
  });

  it('when the user info fails to load, clears the token and goes to sign-in', async () => {
    setToken('T');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubServer({ '/v1.0/user/getInfo': { code: 500, msg: 'internal error', data: null } });
    renderAt('/home');
    expect((await screen.findByTestId('where')).textContent).toBe('/login');
    expect(getToken()).toBeNull();
  });

  it('an unconfirmed authenticator goes to /googleVerify', async () => {
    setToken('T');
    stubServer({ '/v1.0/user/getInfo': ok(testUser({ confirmBind: false })) });
    renderAt('/home');
    expect((await screen.findByTestId('where')).textContent).toBe('/googleVerify');
  });
});
