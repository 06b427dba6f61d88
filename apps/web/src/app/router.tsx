import { ROUTES } from '@paydesk/contract';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import GoogleVerifyPage from '../features/auth/GoogleVerifyPage';
import LoginPage from '../features/auth/LoginPage';
import { ForbiddenPage, NotFoundPage } from './ErrorPages';
import { Guard } from './Guard';
import { Shell } from './layout/Shell';
import { pageOf } from './pages';

/**
 * Every route of the contract's table at its real URL (history routing). Routes with a page render
 * it inside the shell; the others fall through to the 404 page until their area is built.
 */
export function createRouter() {
  const pageRoutes = ROUTES.filter((r) => pageOf(r.name)).map((r) => {
    const Page = pageOf(r.name)!;
    return { path: r.path, element: <Page /> };
  });
  return createBrowserRouter([
    // The payer page /pay/<orderCode> is not here: it has its own entry (pay.html, src/pay-main.tsx).
    {
      element: (
        <Guard>
          <Outlet />
        </Guard>
      ),
      children: [
        { path: '/login', element: <LoginPage /> },
        { path: '/googleVerify', element: <GoogleVerifyPage /> },
        {
          element: <Shell />,
          children: [
            { path: '/', element: <Navigate to="/home" replace /> },
            ...pageRoutes,
            { path: '/401', element: <ForbiddenPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
