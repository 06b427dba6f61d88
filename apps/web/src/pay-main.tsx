import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setupPayerI18n } from './features/pay/i18n';
import PayPage from './features/pay/PayPage';
import { payerOrderCodeOf } from './features/pay/payUrl';

/**
 * The payer page's own entry (pay.html, which the server sends for /pay/<orderCode> and for the legacy
 * /pay?orderCode=<orderCode>, IsNewPayUrl): payers open it on phones over mobile data, so it loads
 * neither the console's code nor its component library.
 */
setupPayerI18n();
const orderCode = payerOrderCodeOf(window.location);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PayPage orderCode={orderCode} />
  </StrictMode>,
);
