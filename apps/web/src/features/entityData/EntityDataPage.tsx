import { type EntityColumn, type EntityTable, endpoints } from '@paydesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { useScrollRegion } from '../../shared/list/scrollRegion';

const PAGE_SIZE = 20;

interface Query {
  table: EntityTable;
  column: string | null;
  value: string;
  pageIndex: number;
}

/**
 * System management › entity data view (superAdmin; technical maintenance on the read-only route):
 * one main table at a time, newest first, optionally where one column equals a value. The server
 * answers secrets only as set; this page only reads.
 *
 * Test hooks: `entity-table`, `entity-column`, `entity-value`, `entity-search`, `entity-rows`,
 * `entity-next`, `entity-previous`.
 */
export default function EntityDataPage() {
  const { t, i18n } = useTranslation(['entityData', 'common']);
  const [form] = Form.useForm<{ table: EntityTable; column: string | null; value: string }>();
  const [query, setQuery] = useState<Query>({ table: 'users', column: null, value: '', pageIndex: 1 });
  const tables = useQuery({
    queryKey: ['entityData', 'tables'],
    queryFn: () => call(endpoints.entityData.entityTables, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const rows = useQuery({
    queryKey: ['entityData', 'rows', query],
    queryFn: () =>
      call(endpoints.entityData.entityRows, {
        table: query.table,
        pageIndex: query.pageIndex,
        pageSize: PAGE_SIZE,
        ...(query.column ? { column: query.column, value: query.value } : {}),
      }),
    placeholderData: keepPreviousData,
  });
  const selected = Form.useWatch('table', form) ?? query.table;
  const columnsOf = (table: EntityTable): EntityColumn[] =>
    tables.data?.list.find((x) => x.table === table)?.columns ?? [];
  const shown = columnsOf(query.table);

  const render = (column: EntityColumn) => (value: string | null) => {
    if (value === null) return <Typography.Text type="secondary">—</Typography.Text>;
    if (column.kind === 'secret') return <Tag>{t('secretSet')}</Tag>;
    if (column.kind === 'bytes') return t('bytes', { size: value });
    return <span className="entity-cell">{value}</span>;
  };

  const scrollRegion = useScrollRegion();
  const error = tables.error ?? rows.error;
  return (
    <div className="page">
      <Card size="small">
        <Typography.Paragraph type="secondary">{t('readOnlyNote')}</Typography.Paragraph>
        <Form
          form={form}
          layout="inline"
          initialValues={{ table: query.table, column: null, value: '' }}
          onFinish={(v) => setQuery({ table: v.table, column: v.column ?? null, value: v.value ?? '', pageIndex: 1 })}
          className="entity-filters"
        >
          <Form.Item name="table" label={t('table')}>
            <Select
              data-testid="entity-table"
              style={{ minWidth: 180 }}
              showSearch
              options={(tables.data?.list ?? []).map((x) => ({ value: x.table, label: x.table }))}
              onChange={() => form.setFieldsValue({ column: null, value: '' })}
            />
          </Form.Item>
          <Form.Item name="column" label={t('column')}>
            <Select
              data-testid="entity-column"
              style={{ minWidth: 160 }}
              showSearch
              options={[
                { value: null, label: t('anyColumn') },
                ...columnsOf(selected)
                  .filter((c) => c.kind === 'value')
                  .map((c) => ({ value: c.name, label: c.name })),
              ]}
            />
          </Form.Item>
          <Form.Item name="value" label={t('value')}>
            <Input data-testid="entity-value" placeholder={t('valuePlaceholder')} maxLength={256} allowClear />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" data-testid="entity-search">
                {t('search')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  setQuery({ table: 'users', column: null, value: '', pageIndex: 1 });
                }}
              >
                {t('reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      {error && (
        <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, error) })} />
      )}
      <Card size="small">
        <Table<Record<string, string | null>>
          ref={scrollRegion}
          data-testid="entity-rows"
          size="small"
          loading={rows.isFetching || tables.isPending}
          dataSource={rows.data?.list ?? []}
          rowKey={(row) => JSON.stringify(row)}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: rows.isPending ? t('common:list.loading') : t('empty') }}
          columns={shown.map((c) => ({ title: c.name, dataIndex: c.name, key: c.name, render: render(c) }))}
        />
        <Space className="entity-pager" wrap>
          <Button
            data-testid="entity-previous"
            disabled={query.pageIndex <= 1}
            onClick={() => setQuery((q) => ({ ...q, pageIndex: q.pageIndex - 1 }))}
          >
            {t('previous')}
          </Button>
          <span>{t('page', { page: query.pageIndex })}</span>
          <Button
            data-testid="entity-next"
            disabled={!rows.data?.hasMore}
            onClick={() => setQuery((q) => ({ ...q, pageIndex: q.pageIndex + 1 }))}
          >
            {t('next')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}
