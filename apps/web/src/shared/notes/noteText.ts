import type { NoteTemplate } from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';

/** Values that hold a code the console names (`<namespace:key>.<code>`): order marks, proposal kinds. */
const NAMED_VALUES: Record<string, string> = {
  fromMark: 'orders:mark',
  toMark: 'orders:mark',
  proposalKind: 'funds:kind',
  partyKind: 'funds:partyKind',
};

type Template = { key: string; values: NoteTemplate['values'] } | null;

/**
 * A text the server wrote, in the console's language: the staff's edited text in that language when
 * the server filled one (`texts`, a system message's title_texts or content_texts), else its template
 * (`notes:<key>`) with its values, else the stored text (typed by someone, written before templates,
 * or of a key this console does not know yet).
 */
export function templateText(
  i18n: I18n,
  template: Template,
  stored: string,
  texts?: Partial<Record<string, string>>,
): string {
  const edited = texts?.[i18n.language];
  if (edited) return edited;
  if (!template || !i18n.exists(`notes:${template.key}`)) return stored;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(template.values)) {
    const named = NAMED_VALUES[name] ? `${NAMED_VALUES[name]}.${value}` : null;
    values[name] = named && i18n.exists(named) ? i18n.t(named) : value;
  }
  return i18n.t(`notes:${template.key}`, { replace: values });
}

/** A timeline or transfer note (`note` and `noteTemplate`) in the console's language. */
export const noteText = (i18n: I18n, row: { note: string; noteTemplate: Template }) =>
  templateText(i18n, row.noteTemplate, row.note);
