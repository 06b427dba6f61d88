import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// CI runs every suite at once on two cores: give findBy/waitFor room beyond the 1 s default.
configure({ asyncUtilTimeout: 5000 });

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
