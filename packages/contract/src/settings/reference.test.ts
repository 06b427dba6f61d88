import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REFERENCE_BEGIN, REFERENCE_END, settingsReference } from './reference.js';
import { SETTING_KEYS } from './registry.js';

const DOC = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));

describe('docs/configuration.md', () => {
  it('holds the reference the registry writes (run `npm run docs:settings` after changing a setting)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const begin = doc.indexOf(REFERENCE_BEGIN);
    const end = doc.indexOf(REFERENCE_END);
    expect(begin, 'the reference markers').toBeGreaterThanOrEqual(0);
    expect(doc.slice(begin, end + REFERENCE_END.length)).toBe(settingsReference());
  });

  it('lists every key once', () => {
    const reference = settingsReference();
    for (const key of SETTING_KEYS) expect(reference.split(`| \`${key}\` |`).length - 1, key).toBe(1);
  });
});
