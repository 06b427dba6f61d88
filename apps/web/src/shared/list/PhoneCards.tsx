import { Card, Descriptions, Empty, Pagination, type PaginationProps, Space, Spin, type TableColumnType } from 'antd';
import type { ReactNode } from 'react';
import { columnId } from './columnSettings';
import type { PhonePlace } from './types';

/** Lines a card shows under its title when no column of the page asks for a line on phones. */
const PHONE_LINES = 4;

export interface PhoneCardsProps<Row> {
  /** The list's visible columns, as the table would get them (renders and money formatting applied). */
  columns: Array<TableColumnType<Row> & { phone?: PhonePlace | undefined }>;
  rows: Row[];
  rowKey: keyof Row & string;
  loading: boolean;
  emptyText: ReactNode;
  /** The totals of the whole filtered set, already rendered (null: none). */
  totals: ReactNode;
  pagination: PaginationProps;
}

function cell<Row>(col: TableColumnType<Row>, row: Row, index: number): ReactNode {
  const value = typeof col.dataIndex === 'string' ? (row as Record<string, unknown>)[col.dataIndex] : undefined;
  if (col.render) return col.render(value, row, index) as ReactNode;
  return value === null || value === undefined ? '' : String(value);
}

/**
 * A list's rows on a phone: one card each, titled by the column the page marks `'title'` (else its
 * first), with the `'extra'` column in its corner (a row's checkbox), the columns marked `true` (else
 * the next few) as label and value lines, then its actions (the column keyed `actions`, or the one a
 * wide screen pins right). A table there showed the order code and the actions and little else.
 */
export function PhoneCards<Row>(props: PhoneCardsProps<Row>) {
  const { columns } = props;
  const title = columns.find((c) => c.phone === 'title') ?? columns[0];
  const extra = columns.find((c) => c.phone === 'extra');
  const actions = columns.find((c) => c.fixed === 'right' || c.key === 'actions');
  const rest = columns.filter((c) => c !== title && c !== extra && c !== actions);
  const marked = rest.filter((c) => c.phone === true);
  const lines = marked.length > 0 ? marked : rest.slice(0, PHONE_LINES);
  return (
    <div className="list-phone-cards">
      {props.totals}
      <Spin spinning={props.loading}>
        {props.rows.length === 0 ? (
          // While rows load, the text says so and no empty-box picture (titled 'no data') shows.
          <Empty image={props.loading ? false : Empty.PRESENTED_IMAGE_SIMPLE} description={props.emptyText} />
        ) : (
          <Space orientation="vertical" size="small" style={{ width: '100%' }}>
            {props.rows.map((row, index) => (
              <Card
                key={String(row[props.rowKey])}
                size="small"
                title={title ? cell(title, row, index) : null}
                extra={extra ? cell(extra, row, index) : null}
                data-testid={`list-card-${String(row[props.rowKey])}`}
              >
                <Descriptions
                  column={1}
                  size="small"
                  items={lines.map((col, i) => ({
                    key: columnId(col) ?? String(i),
                    label: col.title as ReactNode,
                    children: cell(col, row, index),
                  }))}
                />
                {actions && <div className="list-card-actions">{cell(actions, row, index)}</div>}
              </Card>
            ))}
          </Space>
        )}
      </Spin>
      <Pagination size="small" simple {...props.pagination} style={{ marginTop: 12, textAlign: 'center' }} />
    </div>
  );
}
