import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { NAMESPACES } from './app/locales';
import { registerNamespaces, setupI18n } from './i18n';
import { configureHttp } from './shared/api/http';
import { installErrorLogger } from './shared/errors/logger';
import './styles.css';

registerNamespaces(NAMESPACES);
// The payer page (/pay/<orderCode>) speaks to payers, who choose their language by other rules.
setupI18n(navigator.language, { payer: window.location.pathname.startsWith('/pay/') });
installErrorLogger();
// 1003 outside a page's own handling: the guard sees the token gone and sends the user to sign-in.
configureHttp({ onSessionExpired: () => window.dispatchEvent(new Event('paydesk:token')) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
