import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setupPayerI18n } from './features/pay/i18n';
import PayPage from './features/pay/PayPage';

/**
 * The payer page's own entry (pay.html, which the server sends for /pay/<orderCode>): payers open it
 * on phones over mobile data, so it loads neither the console's code nor its component library.
 */
const PAY_PATH = /^\/pay\/([^/]+)\/?$/;

setupPayerI18n();
const orderCode = decodeURIComponent(PAY_PATH.exec(window.location.pathname)?.[1] ?? '');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PayPage orderCode={orderCode} />
  </StrictMode>,
);
