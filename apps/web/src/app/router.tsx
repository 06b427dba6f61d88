import { ROUTES } from '@paydesk/contract';
import { createBrowserRouter, matchPath, Navigate, Outlet } from 'react-router';
import LoginPage from '../features/auth/LoginPage';
import { getToken } from '../shared/api/session-storage';
import { loadConsoleTexts } from './consoleTexts';
import { Guard } from './Guard';
import { pageOf, preloadPage, withTimeout } from './pages';

/*
 * The login page is in the first download; what only a signed-in user sees (the shell with its menu
 * and tabs, every feature's texts, the error pages) and the authenticator binding page load when
 * first needed, so the login page downloads no list code (issue 18, speed).
 */
const shell = () =>
  withTimeout(Promise.all([import('./layout/Shell'), loadConsoleTexts()])).then(([m]) => ({ Component: m.Shell }));
const googleVerify = () =>
  withTimeout(import('../features/auth/GoogleVerifyPage')).then((m) => ({ Component: m.default }));
const forbidden = () => withTimeout(import('./ErrorPages')).then((m) => ({ Component: m.ForbiddenPage }));
const notFound = () => withTimeout(import('./ErrorPages')).then((m) => ({ Component: m.NotFoundPage }));

/**
 * Every route of the contract's table at its real URL (history routing). Routes with a page render
 * it inside the shell; the others fall through to the 404 page until their area is built.
 */
export function createRouter() {
  // A signed-in user opening a page: its code downloads with the shell's, not after it.
  const opened = ROUTES.find((r) => matchPath(r.path, window.location.pathname));
  if (opened && getToken()) void preloadPage(opened.name);
  const pageRoutes = ROUTES.filter((r) => pageOf(r.name)).map((r) => {
    const Page = pageOf(r.name)!;
    return { path: r.path, element: <Page /> };
  });
  return createBrowserRouter([
    // The payer page is not here: it has its own entry (pay.html, src/pay-main.tsx), which the server
    // sends for both its addresses, /pay/<orderCode> and the legacy /pay?orderCode=<orderCode>.
    {
      element: (
        <Guard>
          <Outlet />
        </Guard>
      ),
      children: [
        { path: '/login', element: <LoginPage /> },
        { path: '/googleVerify', lazy: googleVerify },
        {
          lazy: shell,
          children: [
            { path: '/', element: <Navigate to="/home" replace /> },
            ...pageRoutes,
            { path: '/401', lazy: forbidden },
            { path: '*', lazy: notFound },
          ],
        },
      ],
    },
  ]);
}
