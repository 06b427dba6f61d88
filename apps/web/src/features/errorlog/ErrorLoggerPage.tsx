import { type ErrorLogRow, endpoints } from '@paydesk/contract';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { errorLogKeys } from './api';

/**
 * error_logger_page: the console's script errors (spec section 8), newest first, for staff. A row
 * expands in place to show its stack (`errorlog-stack-<id>` toggles, the stack is `<pre>`): the shared
 * ListTable has no expandable-row option, so the message cell grows instead.
 */
export default function ErrorLoggerPage() {
  const { t } = useTranslation(['errorLog', 'common']);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="page">
      <ListTable<ErrorLogRow>
        testId="errorlog-list"
        viewKey="errorLoggerPage"
        queryKey={errorLogKeys.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.errorLog.getList, p)}
        exportHref={(f) => exportUrl(endpoints.errorLog.export, f)}
        filters={[
          { kind: 'text', name: 'account', label: t('filter.account') },
          { kind: 'text', name: 'page', label: t('filter.page') },
          { kind: 'dateRange', name: 'time', label: t('filter.time') },
        ]}
        columns={[
          {
            title: t('column.at'),
            dataIndex: 'createdAt',
            render: (v: string) => formatTime(v),
          },
          { title: t('column.account'), dataIndex: 'account' },
          { title: t('column.page'), dataIndex: 'page' },
          {
            title: t('column.message'),
            dataIndex: 'message',
            render: (text: string, row) => (
              <Space orientation="vertical" size={4} className="errorlog-message">
                <Space size={8} align="start">
                  <Typography.Text type="danger">{text}</Typography.Text>
                  <Button
                    type="link"
                    size="small"
                    data-testid={`errorlog-stack-${row.id}`}
                    aria-expanded={open.has(row.id)}
                    onClick={() => toggle(row.id)}
                  >
                    {open.has(row.id) ? t('hideStack') : t('showStack')}
                  </Button>
                </Space>
                {open.has(row.id) &&
                  (row.stack ? (
                    <pre className="errorlog-stack" style={{ margin: 0, whiteSpace: 'pre-wrap', maxWidth: 720 }}>
                      {row.stack}
                    </pre>
                  ) : (
                    <Typography.Text type="secondary">{t('noStack')}</Typography.Text>
                  ))}
              </Space>
            ),
          },
          { title: t('column.userAgent'), dataIndex: 'userAgent', width: 280, ellipsis: { showTitle: true } },
          { title: t('column.ip'), dataIndex: 'ip' },
        ]}
      />
    </div>
  );
}
