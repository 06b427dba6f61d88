import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { NAMESPACES } from '../app/locales';
import { registerNamespaces } from '../i18n';

// CI runs every suite at once on two cores: give findBy/waitFor room beyond the 1 s default.
configure({ asyncUtilTimeout: 5000 });

// As main.tsx does: every area's texts, for the tests' setupI18n.
registerNamespaces(NAMESPACES);

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    // biome-ignore lint/suspicious/noDocumentCookie: tests reset the token cookie between cases
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
});
