import { endpoints, type TodoItem, type TodoRow, todoItemsOf } from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Radio } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { useWaitingCounts, workLink } from './WaitingWork';

const LIST_KEY = ['todo', 'list'] as const;

/**
 * Other › To-do items (/todo/list): the work the home page counts, listed in full. One choice per item
 * of the user's role with its live count; each lists that item's records (GET /v1.0/todo/getList) with
 * the amounts' total, a keyword filter and the CSV export, and each record links to the list where it
 * is done, filtered down to it. The item shown is in the address (`?item=`), so a link can open it.
 *
 * Test hooks: `todo-tabs`, `todo-list`, `todo-open-<key>`.
 */
export default function TodoPage() {
  const { t, i18n } = useTranslation(['home', 'common', 'orders']);
  const { role, counts } = useWaitingCounts();
  const items = todoItemsOf(role);
  const [params, setParams] = useSearchParams();
  const asked = params.get('item') as TodoItem | null;
  const item = asked && items.includes(asked) ? asked : items[0];
  const queryClient = useQueryClient();

  // The counts follow the work live; when one moves, the rows listed have moved too.
  const countsNow = JSON.stringify(counts.data?.items ?? null);
  useEffect(() => {
    if (countsNow !== 'null') void queryClient.invalidateQueries({ queryKey: LIST_KEY });
  }, [countsNow, queryClient]);

  if (!item) return null;
  const countOf = (key: TodoItem) => counts.data?.items.find((i) => i.key === key)?.count;
  const detail = (row: TodoRow) => (row.item === 'lockedOrders' ? t(`orders:mark.${row.detail}`) : row.detail);

  return (
    <div className="page">
      {counts.isError && (
        <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, counts.error) })} />
      )}
      {/* Buttons that wrap, not tabs: ten items do not fit a tab bar, whose overflow menu axe refuses. */}
      <Radio.Group
        data-testid="todo-tabs"
        className="todo-items"
        aria-label={t('waiting.title')}
        optionType="button"
        value={item}
        onChange={(e) => setParams({ item: e.target.value as string })}
        options={items.map((key) => ({
          value: key,
          label: (
            <span>
              {t(`waiting.item.${key}`)}{' '}
              <Badge
                count={countOf(key) ?? 0}
                showZero
                overflowCount={9999}
                color={(countOf(key) ?? 0) > 0 ? '#cf1322' : '#595959'}
              />
            </span>
          ),
        }))}
      />
      <ListTable<TodoRow>
        key={item}
        testId="todo-list"
        viewKey="todoList"
        queryKey={[...LIST_KEY, item]}
        rowKey="key"
        fetchPage={(p) => call(endpoints.todo.getList, { ...p, item })}
        exportHref={(f) => exportUrl(endpoints.todo.export, { ...f, item })}
        filters={[{ kind: 'text', name: 'keyword', label: t('todo.keyword') }]}
        columns={[
          {
            title: t(`todo.ref.${item}`),
            dataIndex: 'ref',
            phone: 'title',
            render: (ref: string, row) => {
              const link = workLink(row.item, role, ref);
              return link ? (
                <Link to={link} data-testid={`todo-open-${row.key}`}>
                  {ref}
                </Link>
              ) : (
                ref
              );
            },
          },
          { title: t(`todo.party.${item}`), dataIndex: 'party', phone: true },
          { title: t('todo.amount'), dataIndex: 'amount', money: true, phone: 'extra' },
          { title: t('todo.since'), dataIndex: 'since', phone: true, render: formatTime },
          {
            title: t(`todo.detail.${item}`),
            dataIndex: 'detail',
            phone: true,
            render: (_: string, row) => detail(row),
          },
        ]}
      />
    </div>
  );
}
