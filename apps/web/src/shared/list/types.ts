import type { TableColumnType } from 'antd';

/**
 * The list table's types, in a module of their own so that the table's helpers (filters, column
 * settings, phone cards, saved views) can use them without importing the table.
 */

/** Where a column goes on a phone's card: a line (true), the title, or the top right corner; false: nowhere. */
export type PhonePlace = boolean | 'title' | 'extra';

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
  /**
   * Its place on a row's card on a phone: a line (`true`; without any, the card shows the first few
   * columns), the card's title (`'title'`; else the first column), or its top right corner (`'extra'`).
   */
  phone?: PhonePlace;
};

export type Filters = Record<string, string | number | boolean | undefined>;

export interface Page<Row> {
  list: Row[];
  total: number;
  /**
   * Present when the rows were not counted (HighPerfOrderQuery): whether a page follows; `total` is
   * then the rows up to this page, plus one when one follows, and the pager shows previous and next.
   */
  hasMore?: boolean | undefined;
  /** Sums of the money columns over the whole filtered set, by column key. */
  summary?: Record<string, number> | undefined;
}

export interface ListParams extends Filters {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
}
