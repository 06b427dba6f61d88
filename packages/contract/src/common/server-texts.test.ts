import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Code } from './codes.js';
import { CODE_TEXTS, isReason, REASON_TEXTS, type ReasonTexts, TEXT_LOCALES } from './server-texts.js';

const CJK = /[\u3400-\u9fff]/;
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** A text for each language, none empty, the Chinese ones in Chinese, the same values in all three. */
function problemsOf(name: string, texts: ReasonTexts | undefined): string[] {
  if (!texts) return [`${name}: no texts`];
  const problems: string[] = [];
  for (const locale of TEXT_LOCALES) {
    const text = texts[locale];
    if (typeof text !== 'string' || text.trim() === '') problems.push(`${name}: no ${locale} text`);
    else if (locale !== 'en-US' && (!CJK.test(text) || text === texts['en-US']))
      problems.push(`${name}: the ${locale} text is not Chinese`);
  }
  const english = placeholders(texts['en-US'] ?? '');
  for (const locale of TEXT_LOCALES) {
    if (placeholders(texts[locale] ?? '').join() !== english.join())
      problems.push(`${name}: ${locale} has other values than en-US`);
  }
  const declared = Object.keys(texts.values ?? {}).sort();
  if (declared.join() !== english.join()) problems.push(`${name}: values ${declared} but the text uses ${english}`);
  return problems;
}

const SERVER_SRC = join(import.meta.dirname, '../../../../apps/server/src');

function serverSources(dir = SERVER_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : serverSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Every reason the server's source hands out: `reason: '…'` in an error's data, the last literal of
 * refused(…)/conflict(…)/productRefusal(…), the first of uploadRefused(…), the upload flag's no(…).
 */
const REASON_PATTERNS = [
  /\breason: '(\w+)'/g,
  /\b(?:refused|conflict|productRefusal)\((?:[^()]|\([^()]*\))*?'(\w+)'\s*(?:,\s*\{[^}]*\}\s*)?,?\s*\)/g,
  /\buploadRefused\(\s*'(\w+)'/g,
  /\bno\('(\w+)'\)/g,
];

function reasonsInServer(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of serverSources()) {
    const source = readFileSync(file, 'utf8');
    for (const pattern of REASON_PATTERNS) {
      for (const m of source.matchAll(pattern)) found.set(m[1]!, file.slice(SERVER_SRC.length + 1));
    }
  }
  return found;
}

describe('the server texts catalogue', () => {
  it('has zh-CN, zh-TW and en-US texts for every error code', () => {
    const problems = Object.entries(Code).flatMap(([name, value]) =>
      problemsOf(`${name} (${value})`, CODE_TEXTS[value]),
    );
    expect(problems).toEqual([]);
  });

  it('has zh-CN, zh-TW and en-US texts, with the same values, for every refusal reason', () => {
    const problems = Object.entries(REASON_TEXTS).flatMap(([reason, texts]) => problemsOf(reason, texts));
    expect(problems).toEqual([]);
  });

  it('knows every reason the server source sends', () => {
    const found = reasonsInServer();
    // The scan must see the server's refusals, or it would pass by finding nothing.
    for (const known of ['roleDenied', 'accountLocked', 'orderLocked', 'outsideProductLimits', 'tooManyRows'])
      expect(found.has(known), known).toBe(true);
    const unknown = [...found].filter(([reason]) => !isReason(reason)).map(([r, file]) => `${r} (${file})`);
    expect(unknown).toEqual([]);
  });

  it('flags a reason without its Chinese texts', () => {
    expect(problemsOf('x', { 'zh-CN': 'not found', 'zh-TW': '', 'en-US': 'not found' })).toEqual([
      'x: the zh-CN text is not Chinese',
      'x: no zh-TW text',
    ]);
    expect(problemsOf('y', { 'zh-CN': '请 {{n}} 秒后再试', 'zh-TW': '請稍後再試', 'en-US': 'wait {{n}} s' })).toEqual([
      'y: zh-TW has other values than en-US',
      'y: values  but the text uses n',
    ]);
  });
});
