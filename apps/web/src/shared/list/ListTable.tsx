import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Select, Space, Table, type TableColumnType } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec section 5: dates go to the server as 'YYYY-MM-DD HH:mm:ss'. */
export const FILTER_DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export type FilterField =
  | { kind: 'text'; name: string; label: string }
  | { kind: 'select'; name: string; label: string; options: Array<{ value: string; label: string }> }
  /** A time range sent as two fields (startTime/endTime by default). */
  | { kind: 'dateRange'; name: string; label: string; keys?: [string, string] }
  /** An amount typed in major units, sent with 0.0001 added (spec section 5). */
  | { kind: 'money'; name: string; label: string }
  /** A whole number (an id, a count). */
  | { kind: 'number'; name: string; label: string };

/**
 * A column of a list: an antd column plus what the list does with it. `key` (or a string
 * `dataIndex`) names it for column settings, sorting and the totals row.
 */
export type ListColumn<Row> = TableColumnType<Row> & {
  /** Minor units: shown divided by 100 with separators; totalled from the answer's `summary[key]`. */
  money?: boolean;
  /** Sortable on the server: clicking sends `sortBy=<sortKey>&sortOrder=asc|desc`. */
  sortKey?: string;
  /** Hidden until the user shows it in the column settings. */
  defaultHidden?: boolean;
};

export type Filters = Record<string, string | number | boolean | undefined>;

export interface Page<Row> {
  list: Row[];
  total: number;
  /** Sums of the money columns over the whole filtered set, by column key. */
  summary?: Record<string, number> | undefined;
}

export interface ListParams extends Filters {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
}

export interface ListTableProps<Row> {
  /** Query key prefix; the filters and page are appended. Invalidate the prefix to reload. */
  queryKey: readonly unknown[];
  fetchPage(params: ListParams): Promise<Page<Row>>;
  columns: Array<ListColumn<Row>>;
  rowKey: keyof Row & string;
  filters?: FilterField[];
  /** A download URL of the filtered set as CSV. */
  exportHref?(filters: Filters): string;
  toolbar?: ReactNode;
  testId?: string;
  /** The page's route name: saved filter views and column settings are kept per user and page. */
  viewKey?: string;
}

/** Form values -> request filters: trimmed texts, empty means absent, ranges as two formatted dates. */
function toFilters(fields: FilterField[], values: Record<string, unknown>): Filters {
  const out: Filters = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'dateRange') {
      const range = v as [Dayjs, Dayjs] | null | undefined;
      const [from, to] = f.keys ?? ['startTime', 'endTime'];
      if (range?.[0]) out[from] = range[0].format(FILTER_DATE_FORMAT);
      if (range?.[1]) out[to] = range[1].format(FILTER_DATE_FORMAT);
    } else if (typeof v === 'string' && v.trim() !== '') {
      out[f.name] = v.trim();
    }
  }
  return out;
}

/**
 * A server-paged list with its filters, loading, empty and error states, and CSV export of the
 * whole filtered set. A page declares its columns and filters; it does not copy another page.
 */
export function ListTable<Row extends object>(props: ListTableProps<Row>) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ pageIndex: 1, pageSize: 20 });
  const query = useQuery({
    queryKey: [...props.queryKey, filters, paging],
    queryFn: () => props.fetchPage({ ...filters, ...paging }),
    placeholderData: keepPreviousData,
  });
  const fields = props.filters ?? [];

  return (
    <Card className="list-table" data-testid={props.testId}>
      {fields.length > 0 && (
        <Form
          form={form}
          layout="inline"
          className="list-filters"
          onFinish={(values: Record<string, unknown>) => {
            setFilters(toFilters(fields, values));
            setPaging((p) => ({ ...p, pageIndex: 1 }));
          }}
        >
          {fields.map((f) => (
            <Form.Item key={f.name} name={f.name} label={f.label}>
              {f.kind === 'text' && <Input allowClear />}
              {f.kind === 'select' && <Select allowClear options={f.options} style={{ minWidth: 160 }} />}
              {f.kind === 'dateRange' && <DatePicker.RangePicker showTime />}
            </Form.Item>
          ))}
          <Space>
            <Button type="primary" htmlType="submit">
              {t('action.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setFilters({});
                setPaging((p) => ({ ...p, pageIndex: 1 }));
              }}
            >
              {t('action.reset')}
            </Button>
          </Space>
        </Form>
      )}
      <Space className="list-toolbar">
        {props.toolbar}
        {props.exportHref && (
          <Button href={props.exportHref(filters)} download data-testid="export-csv">
            {t('action.exportCsv')}
          </Button>
        )}
        <Button onClick={() => void query.refetch()}>{t('action.refresh')}</Button>
      </Space>
      {query.isError && (
        <Alert
          type="error"
          showIcon
          title={t('list.loadFailed', { message: query.error.message })}
          action={<Button onClick={() => void query.refetch()}>{t('action.retry')}</Button>}
        />
      )}
      <Table<Row>
        rowKey={props.rowKey}
        columns={props.columns}
        dataSource={query.data?.list ?? []}
        loading={query.isFetching}
        locale={{ emptyText: query.isError ? ' ' : t('list.empty') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: paging.pageIndex,
          pageSize: paging.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('list.total', { total }),
          onChange: (pageIndex, pageSize) => setPaging({ pageIndex, pageSize }),
        }}
      />
    </Card>
  );
}
