import { Button, Result } from 'antd';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoadTimeout } from '../pages';

function PageError({ error, retry }: { error: Error; retry(): void }) {
  const { t } = useTranslation('common');
  const timeout = error instanceof PageLoadTimeout;
  return (
    <Result
      status="warning"
      title={timeout ? t('page.loadTimeout') : t('page.loadFailed', { message: error.message })}
      extra={<Button onClick={retry}>{t('action.retry')}</Button>}
    />
  );
}

/** A page that fails to load or render shows an error view with a retry, not a blank screen. */
export class PageBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) return <PageError error={this.state.error} retry={() => location.reload()} />;
    return this.props.children;
  }
}
