import {
  type IntegerSettingType,
  SETTING_GROUPS,
  SETTING_KEYS,
  SETTINGS,
  type SettingDef,
  type SettingKey,
  type SettingType,
} from './registry.js';
import { SETTING_AREA_TEXTS, SETTING_GROUP_TEXTS, SETTING_TEXTS, SETTING_UNIT_TEXTS } from './texts.js';

/**
 * docs/configuration.md's reference of the settings, written from the registry so the document cannot
 * drift from it (settings/reference.test.ts compares them; `npm run docs:settings` rewrites it): one
 * table per group of the config page, each key with its type, default, who changes it, the area that
 * uses it and what it does, in English.
 */
export const REFERENCE_BEGIN = '<!-- settings reference: written by `npm run docs:settings` from the registry -->';
export const REFERENCE_END = '<!-- end of the settings reference -->';

const en = (t: { 'en-US': string }) => t['en-US'];
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const number = (n: number) => n.toLocaleString('en-US');

function range(t: IntegerSettingType): string {
  return `${number(t.min)} to ${number(t.max)} ${en(SETTING_UNIT_TEXTS[t.unit])}`;
}

function typeOf(type: SettingType): string {
  switch (type.kind) {
    case 'switch':
      return 'switch';
    case 'integer':
      return `integer, ${range(type)}`;
    case 'choice':
      return `one of ${type.options.map((o) => `\`${o}\``).join(', ')}`;
    case 'text':
      return `text, at most ${type.maxLength} characters`;
    case 'secret':
      return 'secret (sealed; answered only as set or not set)';
    case 'structured':
      return `fields: ${Object.entries(type.fields)
        .map(([name, t]) => `\`${name}\` (${range(t)})`)
        .join('; ')}`;
  }
}

function defaultOf(def: SettingDef): string {
  const value = def.default as unknown;
  if (value === null) return 'not set';
  if (typeof value === 'string') return value === '' ? '(empty)' : `\`${value}\``;
  if (typeof value === 'object') return `\`${JSON.stringify(value)}\``;
  return `\`${String(value)}\``;
}

function rowOf(key: SettingKey): string {
  const def: SettingDef = SETTINGS[key];
  const area = `${en(SETTING_AREA_TEXTS[def.area])}${def.wired ? '' : ' (not built yet)'}`;
  const what = `${en(SETTING_TEXTS[key].description)}${def.beyondSpec ? ' (Beyond spec section 7.)' : ''}`;
  return `| \`${key}\` | ${cell(typeOf(def.type))} | ${defaultOf(def)} | ${def.writeRoles.join(', ')} | ${cell(area)} | ${cell(what)} |`;
}

/** The reference, between its markers. */
export function settingsReference(): string {
  const parts = [REFERENCE_BEGIN];
  for (const group of SETTING_GROUPS) {
    const keys = SETTING_KEYS.filter((key) => SETTINGS[key].group === group);
    if (keys.length === 0) continue;
    parts.push(
      '',
      `### ${en(SETTING_GROUP_TEXTS[group])}`,
      '',
      '| Key | Type | Default | Changed by | Used by | What it does |',
      '| --- | --- | --- | --- | --- | --- |',
      ...keys.map(rowOf),
    );
  }
  parts.push('', REFERENCE_END);
  return parts.join('\n');
}
