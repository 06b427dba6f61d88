import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { setupI18n } from './i18n';
import { configureHttp } from './shared/api/http';
import { installErrorLogger } from './shared/errors/logger';
import './styles.css';

// The payer page (/pay/<orderCode>) has its own entry, pay-main.tsx.
setupI18n(navigator.language);
installErrorLogger();
// 1003 outside a page's own handling: the guard sees the token gone and sends the user to sign-in.
configureHttp({ onSessionExpired: () => window.dispatchEvent(new Event('paydesk:token')) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
