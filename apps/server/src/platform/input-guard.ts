import type { Issue } from '@paydesk/contract';

/**
 * Text the database cannot hold, found before any schema or SQL sees it: PostgreSQL refuses a NUL
 * character in text (and the driver's error would be a 500), and a lone UTF-16 surrogate is not
 * Unicode at all (it would be stored as a replacement character, so what is stored is not what was
 * sent). Both are refused as invalid input, in keys and values, at any depth of a body or query.
 */
const NUL = '\u0000';

function problemOf(text: string): string | null {
  if (text.includes(NUL)) return 'must not contain a NUL character';
  if (!isWellFormed(text)) return 'must be valid Unicode text';
  return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** The first piece of text in `value` the database cannot hold, as an issue; null when there is none. */
export function unstorableTextIssue(value: unknown): Issue | null {
  // An explicit stack: a body nested thousands deep must not overflow the call stack here.
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return { path, message: problem };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push({ value: v[i], path: join(path, String(i)) });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const problem = problemOf(key);
        if (problem) return { path: join(path, key.replaceAll(NUL, '\\0')), message: `field name ${problem}` };
        stack.push({ value: item, path: join(path, key) });
      }
    }
  }
  return null;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
