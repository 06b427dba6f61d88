import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { authLocales } from './features/auth/locales';
import { commonLocales } from './i18n/common.locales';
import { startConsoleI18n } from './i18n/console';
import { serverLocales } from './shared/api/errorText';
import { configureHttp } from './shared/api/http';
import { installErrorLogger } from './shared/errors/logger';
import './styles.css';

// The sign-in pages' texts, with the server's (a refused sign-in reads in the reader's language); the
// signed-in shell adds the others (app/consoleTexts.ts). The payer page has its own entry, pay-main.tsx.
startConsoleI18n(navigator.language, { common: commonLocales, auth: authLocales, server: serverLocales });
installErrorLogger();
// 1003 outside a page's own handling: the guard sees the token gone and sends the user to sign-in.
configureHttp({ onSessionExpired: () => window.dispatchEvent(new Event('paydesk:token')) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
