import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { SecondLevelDialog } from '../features/auth/SecondLevelDialog';
import type { Language } from '../i18n/language';
import { createRouter } from './router';
import { THEME } from './theme';

const ANTD_LOCALE = { 'zh-CN': zhCN, 'zh-TW': zhTW, 'en-US': enUS } as const;

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

export function App() {
  const { i18n } = useTranslation();
  const router = useMemo(createRouter, []);
  return (
    <ConfigProvider locale={ANTD_LOCALE[i18n.language as Language] ?? zhCN} theme={THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          <SecondLevelDialog />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
