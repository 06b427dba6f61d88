import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { labelOr } from '../../i18n/labelOr';

export interface ChangeRow {
  /** The field's key as the server wrote it ('' for a value that is not a set of fields). */
  field: string;
  before: unknown;
  after: unknown;
}

const fieldsOf = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An audit row's change, field by field: every field of a creation or a deletion; of an update only
 * the fields that changed (all of them when none did, so the row still says what was written).
 */
export function changeRows(before: unknown, after: unknown): ChangeRow[] {
  const b = fieldsOf(before);
  const a = fieldsOf(after);
  if (!b && !a) {
    if ((before === null || before === undefined) && (after === null || after === undefined)) return [];
    return [{ field: '', before, after }];
  }
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  const rows = keys.map((field) => ({ field, before: b?.[field], after: a?.[field] }));
  if (!b || !a) return rows;
  const changed = rows.filter((r) => !same(r.before, r.after));
  return changed.length > 0 ? changed : rows;
}

function valueText(i18n: I18n, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return i18n.t(value ? 'audit:change.yes' : 'audit:change.no');
  if (value === '') return i18n.t('audit:change.empty');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The change of one audit row as a small table: field (in the reader's language), before, after. */
export function ChangeTable({ before, after }: { before: unknown; after: unknown }) {
  const { t, i18n } = useTranslation('audit');
  const rows = changeRows(before, after);
  if (rows.length === 0) return null;
  return (
    <table className="audit-change" data-testid="audit-change">
      <thead>
        <tr>
          <th scope="col">{t('change.field')}</th>
          <th scope="col">{t('before')}</th>
          <th scope="col">{t('after')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.field}>
            <th scope="row" title={row.field}>
              {row.field === '' ? '' : labelOr(i18n, `audit:field.${row.field}`, row.field)}
            </th>
            <td>{valueText(i18n, row.before)}</td>
            <td>{valueText(i18n, row.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
