import {
  type IntegerSettingType,
  majorToMinor,
  minorToMajorText,
  SETTING_CHOICE_TEXTS,
  SETTING_FIELD_TEXTS,
  SETTING_SECRET_TEXTS,
  SETTING_TEXTS,
  SETTING_UNIT_TEXTS,
  SETTINGS,
  type SettingDef,
  type SettingEntry,
  type SettingKey,
  type SettingType,
  settingValueSchema,
  type TextLocale,
} from '@paydesk/contract';
import type { TFunction } from 'i18next';
import { formatMoney } from '../../shared/format/money';

/**
 * What the global config page shows of a setting and what its controls send: the value in the
 * reader's language, the typed control's value (rupees for an amount in minor units) and back, the
 * search, and the validation texts of the contract's schema (settingValueSchema).
 */

export const typeOf = (key: SettingKey): SettingType => (SETTINGS[key] as SettingDef).type;

const local = (texts: Readonly<Record<TextLocale, string>>, language: string): string =>
  texts[language as TextLocale] ?? texts['en-US'];

export const labelOf = (key: SettingKey, language: string) => local(SETTING_TEXTS[key].label, language);
export const descriptionOf = (key: SettingKey, language: string) => local(SETTING_TEXTS[key].description, language);

export type FieldName = keyof typeof SETTING_FIELD_TEXTS;
export const fieldLabelOf = (field: string, language: string) =>
  local(SETTING_FIELD_TEXTS[field as FieldName], language);

/** The unit an input shows beside a number: an amount in minor units is typed in rupees. */
export function unitOf(type: IntegerSettingType, language: string, t: TFunction): string {
  return type.unit === 'minorUnits' ? t('systemConfig:rupees') : local(SETTING_UNIT_TEXTS[type.unit], language);
}

/** A whole number of its unit as read: '15 minutes', '3' (a count), '1,000.00' (an amount). */
export function integerText(type: IntegerSettingType, value: number, language: string): string {
  if (type.unit === 'minorUnits') return formatMoney(value, language);
  const n = value.toLocaleString(language);
  return type.unit === 'count' ? n : `${n} ${local(SETTING_UNIT_TEXTS[type.unit], language)}`;
}

/** The range of a number as its input takes it ('1 – 1,440 minutes', '1 – 1,000'; an amount in rupees). */
export function rangeText(type: IntegerSettingType, language: string, t: TFunction): string {
  const [min, max] =
    type.unit === 'minorUnits'
      ? [formatMoney(type.min, language), formatMoney(type.max, language)]
      : [type.min.toLocaleString(language), type.max.toLocaleString(language)];
  const range = t('systemConfig:range', { min, max });
  return type.unit === 'count' ? range : `${range} ${unitOf(type, language, t)}`;
}

/** The option of a choice in the reader's language. */
export function choiceText(key: SettingKey, option: string, language: string): string {
  const texts = (SETTING_CHOICE_TEXTS as Partial<Record<SettingKey, Record<string, Record<TextLocale, string>>>>)[key];
  const text = texts?.[option];
  return text ? local(text, language) : option;
}

export const secretText = (set: boolean, language: string) =>
  local(set ? SETTING_SECRET_TEXTS.set : SETTING_SECRET_TEXTS.notSet, language);

/** The current value of an entry as one line of text (a structured value: its fields, joined). */
export function valueText(entry: SettingEntry, language: string, t: TFunction): string {
  const type = typeOf(entry.key);
  switch (type.kind) {
    case 'switch':
      return entry.enable ? t('systemConfig:on') : t('systemConfig:off');
    case 'secret':
      return secretText(entry.set === true, language);
    case 'integer':
      return integerText(type, entry.value as number, language);
    case 'choice':
      return choiceText(entry.key, entry.value as string, language);
    case 'text':
      return entry.value === '' ? t('systemConfig:emptyText') : String(entry.value);
    case 'structured':
      return fieldTexts(entry.key, entry.value as Record<string, number>, language)
        .map((f) => `${f.label}: ${f.value}`)
        .join('; ');
  }
}

/** The fields of a structured value, each with its label and value as read. */
export function fieldTexts(key: SettingKey, value: Record<string, number>, language: string) {
  const type = typeOf(key);
  if (type.kind !== 'structured') return [];
  return Object.entries(type.fields).map(([field, ft]) => ({
    field,
    label: fieldLabelOf(field, language),
    value: typeof value[field] === 'number' ? integerText(ft, value[field], language) : '',
  }));
}

/** Whether an entry matches the search: its key, label or description in the reader's language. */
export function matches(key: SettingKey, query: string, language: string): boolean {
  const q = query.trim().toLocaleLowerCase(language);
  if (q === '') return true;
  return [key, labelOf(key, language), descriptionOf(key, language)].some((s) =>
    s.toLocaleLowerCase(language).includes(q),
  );
}

/** What the form of a field holds: a number (rupees for an amount), a text, a choice. */
export type FormValue = number | string | null | undefined;

/** A stored number as its input shows it (an amount in minor units as rupees). */
export function toInput(type: IntegerSettingType, value: number): number {
  return type.unit === 'minorUnits' ? Number(minorToMajorText(value)) : value;
}

/** An input's number as the setting holds it (rupees x100, never through a float); NaN when unreadable. */
export function fromInput(type: IntegerSettingType, value: FormValue): number {
  if (value === null || value === undefined || value === '') return Number.NaN;
  if (type.unit !== 'minorUnits') return typeof value === 'number' ? value : Number(value);
  return majorToMinor(String(value)) ?? Number.NaN;
}

/** The form's initial values for an entry (a secret's input starts empty). */
export function formValuesOf(entry: SettingEntry): Record<string, FormValue> {
  const type = typeOf(entry.key);
  if (type.kind === 'structured') {
    const value = entry.value as Record<string, number>;
    return Object.fromEntries(Object.entries(type.fields).map(([f, ft]) => [f, toInput(ft, value[f]!)]));
  }
  if (type.kind === 'integer') return { value: toInput(type, entry.value as number) };
  if (type.kind === 'secret') return { value: '' };
  return { value: entry.value as FormValue };
}

/** The value the setX body carries, from the form (a number as entered, an amount x100). */
export function valueFromForm(key: SettingKey, values: Record<string, FormValue>): unknown {
  const type = typeOf(key);
  switch (type.kind) {
    case 'structured':
      return Object.fromEntries(Object.entries(type.fields).map(([f, ft]) => [f, fromInput(ft, values[f])]));
    case 'integer':
      return fromInput(type, values.value);
    case 'text':
    case 'secret':
      return values.value ?? '';
    default:
      return values.value;
  }
}

/**
 * The problem of a field ('value', or a structured value's field) in the reader's language, checked
 * by the contract's schema of the key; null when the value is accepted.
 */
export function fieldProblem(
  key: SettingKey,
  field: string,
  values: Record<string, FormValue>,
  language: string,
  t: TFunction,
): string | null {
  const parsed = settingValueSchema(key).safeParse(valueFromForm(key, values));
  if (parsed.success) return null;
  const type = typeOf(key);
  const issue = parsed.error.issues.find((i) => (type.kind === 'structured' ? i.path[0] === field : field === 'value'));
  if (!issue) return null;
  const numberType = type.kind === 'structured' ? type.fields[field] : type.kind === 'integer' ? type : undefined;
  if (numberType) {
    return numberType.unit === 'minorUnits'
      ? t('systemConfig:invalid.amount', { range: rangeText(numberType, language, t) })
      : t('systemConfig:invalid.integer', { range: rangeText(numberType, language, t) });
  }
  if (type.kind === 'choice') return t('systemConfig:invalid.choice');
  if (type.kind === 'text' || type.kind === 'secret') {
    if (issue.code === 'too_big') return t('systemConfig:invalid.tooLong', { max: type.maxLength });
    if (issue.code === 'too_small') return t('systemConfig:invalid.required');
    return t(`systemConfig:invalid.format.${key}`, { defaultValue: t('systemConfig:invalid.formatOther') });
  }
  return t('systemConfig:invalid.other');
}

/** Keys whose text has a required form (a pattern): each has its own hint of what is accepted. */
export const PATTERNED_KEYS = (Object.keys(SETTINGS) as SettingKey[]).filter((key) => {
  const type = typeOf(key);
  return (type.kind === 'text' || type.kind === 'secret') && type.pattern !== undefined;
});
