import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Select,
  Space,
  Table,
  type TableColumnType,
  type TableProps,
} from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../api/errorText';
import { formatMoney } from '../format/money';
import { useNarrow } from '../layout/useNarrow';
import { useSession } from '../session/session';
import { ColumnSettingsButton, columnId, columnsStorageKey, useColumnSettings } from './columnSettings';
import { DateRangeFilter } from './DateRangeFilter';
import { isValidMoneyInput, isValidNumberInput, linkedFilters, toFilters, toFormValues } from './filterValues';
import { PhoneCards } from './PhoneCards';
import { type RowActions, useRowActions } from './rowActions';
import { SavedViews } from './SavedViews';
import { useScrollRegion } from './scrollRegion';
import type { FilterField, Filters, ListColumn, ListParams, Page } from './types';

export { FILTER_DATE_FORMAT, moneyFilterText } from './filterValues';
export type { FilterField, Filters, ListColumn, ListParams, Page, PhonePlace } from './types';

export interface ListTableProps<Row> {
  /** Query key prefix; the filters and page are appended. Invalidate the prefix to reload. */
  queryKey: readonly unknown[];
  fetchPage(params: ListParams): Promise<Page<Row>>;
  columns: Array<ListColumn<Row>>;
  rowKey: keyof Row & string;
  filters?: FilterField[];
  /** A download URL of the filtered set as CSV (with the current sort, when the user sorted). */
  exportHref?(filters: Filters): string;
  toolbar?: ReactNode;
  testId?: string;
  /** The page's route name: saved filter views and column settings are kept per user and page. */
  viewKey?: string;
  /**
   * The row actions (rowActions.tsx): an actions column pinned right (on a phone, each card's foot)
   * with a row's first two allowed actions as buttons and the rest in a 'more' menu.
   */
  actions?: RowActions<Row>;
}

/**
 * A list with more filters than this shows the first `SHOWN_FILTERS` (a page puts the ones most
 * searched by first) and a toggle for the rest, so the rows are on the first screen.
 */
const COLLAPSE_ABOVE = 8;
const SHOWN_FILTERS = 6;
/** On a phone, where each filter takes a line: the first two, and the rest behind the toggle. */
const PHONE_COLLAPSE_ABOVE = 3;
const PHONE_SHOWN_FILTERS = 2;

interface Sort {
  /** The column's id (its antd key). */
  column: string;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
}

const ANTD_ORDER: Record<Sort['sortOrder'], 'ascend' | 'descend'> = { asc: 'ascend', desc: 'descend' };

/**
 * A server-paged list with its filters, sorting, money totals, column settings, saved views,
 * loading, empty and error states, and CSV export of the whole filtered set. A page declares its
 * columns and filters; it does not copy another page.
 */
export function ListTable<Row extends object>(props: ListTableProps<Row>) {
  const { t, i18n } = useTranslation('common');
  const [form] = Form.useForm();
  const fields = props.filters ?? [];
  // Opened from a link with filters in its query: the list starts filtered, the form showing them.
  const { search } = useLocation();
  const [linked] = useState(() => toFormValues(fields, linkedFilters(fields, search)));
  const [filters, setFilters] = useState<Filters>(() => toFilters(fields, linked));
  const [paging, setPaging] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<Sort | null>(null);
  const { user } = useSession();
  const userId = user?.userId ?? null;
  const rowActions = useRowActions(props.actions, user?.access);
  const settings = useColumnSettings(
    props.viewKey && userId !== null ? columnsStorageKey(userId, props.viewKey) : null,
  );
  const sortParams = sort ? { sortBy: sort.sortBy, sortOrder: sort.sortOrder } : {};
  const query = useQuery({
    queryKey: [...props.queryKey, filters, paging, sortParams],
    queryFn: () => props.fetchPage({ ...filters, ...paging, ...sortParams }),
    placeholderData: keepPreviousData,
  });
  // Under the spinner, 'no data' only once the answer says so: while rows load, the list says it loads.
  const emptyText = query.isError ? ' ' : query.isFetching ? t('list.loading') : t('list.empty');
  const language = i18n.language;
  // A phone shows the rows as cards (PhoneCards): a table's columns do not fit its width.
  const narrow = useNarrow();
  const shownFilters = narrow ? PHONE_SHOWN_FILTERS : SHOWN_FILTERS;
  const collapsible = fields.length > (narrow ? PHONE_COLLAPSE_ABOVE : COLLAPSE_ABOVE);
  const [expanded, setExpanded] = useState(() => foldedSet(fields.slice(shownFilters), linked) > 0);
  const isFolded = (index: number) => collapsible && !expanded && index >= shownFilters;

  const runFilters = (next: Filters) => {
    setFilters(next);
    setPaging((p) => ({ ...p, pageIndex: 1 }));
  };

  const applyView = (saved: Record<string, unknown>) => {
    const values = toFormValues(fields, saved);
    form.resetFields();
    form.setFieldsValue(values);
    if (foldedSet(fields.slice(shownFilters), values) > 0) setExpanded(true);
    runFilters(toFilters(fields, values));
  };

  const currentFilters = async (): Promise<Filters | null> => {
    try {
      return toFilters(fields, await form.validateFields());
    } catch {
      return null;
    }
  };

  const shownColumns = useMemo(() => props.columns.filter(settings.isVisible), [props.columns, settings.isVisible]);
  const visibleColumns = useMemo(
    () =>
      shownColumns.map((col) => {
        const id = columnId(col);
        const { money, sortKey, defaultHidden: _hidden, phone: _phone, ...rest } = col;
        const out: TableColumnType<Row> = { ...rest };
        if (id !== undefined) out.key = id;
        if (money) {
          out.align = col.align ?? 'right';
          if (!col.render) out.render = (v: unknown) => (typeof v === 'number' ? formatMoney(v, language) : '');
        }
        if (sortKey) {
          out.sorter = true;
          out.sortOrder = sort && sort.column === id ? ANTD_ORDER[sort.sortOrder] : null;
        }
        return out;
      }),
    [shownColumns, sort, language],
  );
  // The declared row actions: a column of their own, pinned right (PhoneCards puts it at a card's foot).
  const actionsColumn: TableColumnType<Row> | null = rowActions.any
    ? {
        title: t('rowActions.column'),
        key: 'actions',
        fixed: 'right',
        render: (_: unknown, row: Row) => rowActions.bar(row),
      }
    : null;
  const tableColumns = actionsColumn ? [...visibleColumns, actionsColumn] : visibleColumns;

  /** Sorts by the column `id` in `order` (none: the server's default order), from the first page. */
  const sortBy = (id: string | undefined, order: Sort['sortOrder'] | undefined) => {
    const col = props.columns.find((c) => columnId(c) === id);
    if (!order || !col?.sortKey || id === undefined) setSort(null);
    else setSort({ column: id, sortBy: col.sortKey, sortOrder: order });
    setPaging((p) => ({ ...p, pageIndex: 1 }));
  };

  const onTableChange: TableProps<Row>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    sortBy(
      s?.columnKey === undefined ? undefined : String(s.columnKey),
      s?.order ? (s.order === 'ascend' ? 'asc' : 'desc') : undefined,
    );
  };

  const summary = query.data?.summary;
  const renderSummary = () => {
    const shown = shownColumns;
    if (!summary || !shown.some((c) => c.money)) return null;
    // The label sits in the first column that holds no amount.
    const labelAt = shown.findIndex((c) => !c.money);
    return (
      <Table.Summary fixed="bottom">
        <Table.Summary.Row className="list-totals" data-testid="list-totals">
          {shown.map((col, i) => {
            const id = columnId(col) ?? String(i);
            const value = col.money ? summary[id] : undefined;
            return (
              <Table.Summary.Cell
                key={id}
                index={i}
                align={col.money ? 'right' : undefined}
                className={col.money ? 'list-total-money' : undefined}
              >
                {col.money ? (
                  <span data-testid={`list-total-${id}`}>{formatMoney(value, language)}</span>
                ) : i === labelAt ? (
                  <strong data-testid="list-totals-label">{t('list.totalRow')}</strong>
                ) : null}
              </Table.Summary.Cell>
            );
          })}
        </Table.Summary.Row>
      </Table.Summary>
    );
  };

  // On a phone the totals head the cards: one line per amount the answer totals (a balance column
  // has none), with the same test hooks.
  const phoneTotals = () => {
    const money = shownColumns.filter((c, i) => c.money && summary?.[columnId(c) ?? String(i)] !== undefined);
    if (!summary || money.length === 0) return null;
    return (
      <Descriptions
        className="list-totals"
        data-testid="list-totals"
        size="small"
        column={1}
        title={<span data-testid="list-totals-label">{t('list.totalRow')}</span>}
        items={money.map((col, i) => {
          const id = columnId(col) ?? String(i);
          return {
            key: id,
            label: col.title as ReactNode,
            children: <span data-testid={`list-total-${id}`}>{formatMoney(summary[id], language)}</span>,
          };
        })}
      />
    );
  };
  // A card has no header to click: on a phone the sortable columns are offered in a select.
  const phoneSortOptions = shownColumns.flatMap((col) => {
    const id = columnId(col);
    if (!col.sortKey || id === undefined) return [];
    const column = typeof col.title === 'string' ? col.title : id;
    return [
      { value: `${id}:desc`, label: t('list.descending', { column }) },
      { value: `${id}:asc`, label: t('list.ascending', { column }) },
    ];
  });
  // A list the server did not count (hasMore answered) pages by previous and next only.
  const uncounted = query.data?.hasMore !== undefined;
  const pagination = {
    current: paging.pageIndex,
    pageSize: paging.pageSize,
    total: query.data?.total ?? 0,
    showSizeChanger: true,
    ...(uncounted ? { simple: { readOnly: true } } : {}),
    showTotal: (total: number) => (uncounted ? t('list.uncounted') : t('list.total', { total })),
    onChange: (pageIndex: number, pageSize: number) => setPaging({ pageIndex, pageSize }),
  };

  const tableRef = useScrollRegion();

  return (
    <Card className="list-table" data-testid={props.testId}>
      {fields.length > 0 && (
        <Form
          form={form}
          initialValues={linked}
          layout="inline"
          className="list-filters"
          data-testid="list-filters"
          onFinish={(values: Record<string, unknown>) => runFilters(toFilters(fields, values))}
          // A folded filter that fails its check is shown with its message, not left to block unseen.
          onFinishFailed={() => setExpanded(true)}
        >
          {fields.map((f, i) => (
            <Form.Item
              key={f.name}
              name={f.name}
              label={f.label}
              hidden={isFolded(i)}
              rules={
                f.kind === 'money'
                  ? [
                      {
                        validator: (_, v: unknown) =>
                          typeof v !== 'string' || isValidMoneyInput(v)
                            ? Promise.resolve()
                            : Promise.reject(new Error(t('list.moneyInvalid'))),
                      },
                    ]
                  : f.kind === 'number'
                    ? [
                        {
                          validator: (_, v: unknown) =>
                            typeof v !== 'string' || isValidNumberInput(v)
                              ? Promise.resolve()
                              : Promise.reject(new Error(t('list.numberInvalid'))),
                        },
                      ]
                    : undefined
              }
            >
              {(f.kind === 'text' || f.kind === 'money' || f.kind === 'number') && (
                <Input
                  allowClear
                  data-testid={`filter-${f.name}`}
                  inputMode={f.kind === 'text' ? undefined : f.kind === 'money' ? 'decimal' : 'numeric'}
                  placeholder={f.kind === 'money' ? t('list.moneyPlaceholder') : undefined}
                />
              )}
              {f.kind === 'select' && (
                <Select allowClear options={f.options} style={{ minWidth: 160 }} data-testid={`filter-${f.name}`} />
              )}
              {f.kind === 'dateRange' && <DateRangeFilter data-testid={`filter-${f.name}`} />}
            </Form.Item>
          ))}
          <Space wrap>
            <Button type="primary" htmlType="submit" data-testid="list-search">
              {t('action.search')}
            </Button>
            <Button
              data-testid="list-reset"
              onClick={() => {
                form.resetFields();
                runFilters({});
              }}
            >
              {t('action.reset')}
            </Button>
            {collapsible && (
              <MoreFiltersToggle
                folded={fields.slice(shownFilters)}
                expanded={expanded}
                onToggle={() => setExpanded((e) => !e)}
              />
            )}
            {props.viewKey && userId !== null && (
              <SavedViews viewKey={props.viewKey} userId={userId} currentFilters={currentFilters} onApply={applyView} />
            )}
          </Space>
        </Form>
      )}
      <Space className="list-toolbar" wrap>
        {props.toolbar}
        {props.exportHref && (
          <Button href={props.exportHref({ ...filters, ...sortParams })} download data-testid="export-csv">
            {t('action.exportCsv')}
          </Button>
        )}
        <Button onClick={() => void query.refetch()} data-testid="list-refresh">
          {t('action.refresh')}
        </Button>
        <ColumnSettingsButton columns={props.columns} settings={settings} />
        {narrow && phoneSortOptions.length > 0 && (
          <Select
            allowClear
            placeholder={t('list.sortBy')}
            aria-label={t('list.sortBy')}
            style={{ minWidth: 200 }}
            data-testid="list-sort"
            value={sort ? `${sort.column}:${sort.sortOrder}` : undefined}
            options={phoneSortOptions}
            onChange={(value?: string) => {
              const [id, order] = value ? value.split(':') : [];
              sortBy(id, order === 'asc' || order === 'desc' ? order : undefined);
            }}
          />
        )}
      </Space>
      {query.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="list-error"
          title={t('list.loadFailed', { message: errorText(i18n, query.error) })}
          action={
            <Button onClick={() => void query.refetch()} data-testid="list-retry">
              {t('action.retry')}
            </Button>
          }
        />
      )}
      {narrow ? (
        <PhoneCards<Row>
          columns={[
            ...visibleColumns.map((col, i) => ({ ...col, phone: shownColumns[i]?.phone })),
            ...(actionsColumn ? [actionsColumn] : []),
          ]}
          rows={query.data?.list ?? []}
          rowKey={props.rowKey}
          loading={query.isFetching}
          emptyText={emptyText}
          totals={phoneTotals()}
          pagination={pagination}
        />
      ) : (
        <Table<Row>
          ref={tableRef}
          rowKey={props.rowKey}
          columns={tableColumns}
          dataSource={query.data?.list ?? []}
          loading={query.isFetching}
          locale={{ emptyText }}
          scroll={{ x: 'max-content' }}
          onChange={onTableChange}
          summary={renderSummary}
          pagination={pagination}
        />
      )}
      {rowActions.dialogs}
    </Card>
  );
}

/** How many of these filters would go into the request (the rule of `toFilters`: blanks are not set). */
const foldedSet = (folded: FilterField[], values: Record<string, unknown>): number =>
  folded.filter((f) => Object.keys(toFilters([f], values)).length > 0).length;

/**
 * The toggle of the folded filters. It counts the folded ones that are set (so no filter acts
 * unseen), watching the form itself: watched in the list, every keystroke re-rendered the table.
 */
function MoreFiltersToggle(props: { folded: FilterField[]; expanded: boolean; onToggle(): void }) {
  const { t } = useTranslation('common');
  const values = Form.useWatch([], Form.useFormInstance()) as Record<string, unknown> | undefined;
  const set = foldedSet(props.folded, values ?? {});
  return (
    <Button type="link" data-testid="list-more-filters" onClick={props.onToggle}>
      {props.expanded
        ? t('list.fewerFilters')
        : set > 0
          ? t('list.moreFiltersSet', { count: set })
          : t('list.moreFilters', { count: props.folded.length })}
    </Button>
  );
}
