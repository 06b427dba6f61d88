import { useEffect, useState } from 'react';
import { initialLanguage, type Language } from './i18n/language';

type Status = { state: 'checking' } | { state: 'ready'; database: string } | { state: 'unavailable' };

interface ReadyBody {
  code: number;
  msg: string;
  data: { database: string } | null;
}

const TEXTS: Record<Language, { checking: string; ready: (db: string) => string; unavailable: string }> = {
  'zh-CN': { checking: '正在检查服务…', ready: (db) => `服务就绪（${db}）`, unavailable: '服务不可用' },
  'zh-TW': { checking: '正在檢查服務…', ready: (db) => `服務就緒（${db}）`, unavailable: '服務無法使用' },
  'en-US': { checking: 'Checking API…', ready: (db) => `API ready (${db})`, unavailable: 'API unavailable' },
};

export function App() {
  const [status, setStatus] = useState<Status>({ state: 'checking' });
  const language = initialLanguage(navigator.language, localStorage.getItem('language'));
  const t = TEXTS[language];

  useEffect(() => {
    document.documentElement.lang = language;
    const controller = new AbortController();
    fetch('/readyz', { signal: controller.signal })
      .then(async (res) => {
        const body = (await res.json()) as ReadyBody;
        if (!res.ok || body.code !== 200 || !body.data) throw new Error(body.msg);
        setStatus({ state: 'ready', database: body.data.database });
      })
      .catch(() => {
        if (!controller.signal.aborted) setStatus({ state: 'unavailable' });
      });
    return () => controller.abort();
  }, [language]);

  return (
    <main>
      <h1>PayDesk</h1>
      <p data-testid="api-status">
        {status.state === 'checking' && t.checking}
        {status.state === 'ready' && t.ready(status.database)}
        {status.state === 'unavailable' && t.unavailable}
      </p>
    </main>
  );
}
