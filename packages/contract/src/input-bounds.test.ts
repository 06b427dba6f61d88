import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { listEndpoints } from './endpoints.js';

/**
 * What the database can hold is said by the schema, for every field of every request: a text has a
 * longest length and a number its largest and smallest value. The server refuses anything else before
 * any SQL runs, so a new field without bounds fails here rather than answering 500 to a large value.
 */
type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** Paths of unbounded texts and numbers inside a schema. */
function unbounded(schema: z.ZodType, path: string, out: string[], depth = 0): string[] {
  if (depth > 30) return out;
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const s = schema as unknown as { maxLength: number | null; format?: string | null };
      if (s.maxLength === null) out.push(`${path}: text without a maximum length`);
      break;
    }
    case 'number': {
      // An explicit bound (`.max()`, `.positive()`...), not only what `.int()` implies (2^53).
      const checks = ((def.checks ?? []) as Array<{ _zod: { def: { check: string; format?: string } } }>).map(
        (c) => c._zod.def,
      );
      const bounded32 = checks.some((c) => c.check === 'number_format' && /int32/.test(c.format ?? ''));
      if (!bounded32 && !checks.some((c) => c.check === 'less_than')) out.push(`${path}: number without a maximum`);
      if (!bounded32 && !checks.some((c) => c.check === 'greater_than')) out.push(`${path}: number without a minimum`);
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      unbounded(def.innerType as z.ZodType, path, out, depth + 1);
      break;
    case 'pipe': {
      // A preprocess feeds its result to the real schema (`out`); a transform after a schema reads `in`.
      const into = def.in as z.ZodType;
      unbounded(defOf(into).type === 'transform' ? (def.out as z.ZodType) : into, path, out, depth + 1);
      break;
    }
    case 'object':
      for (const [key, field] of Object.entries((schema as z.ZodObject).shape)) {
        unbounded(field as z.ZodType, path ? `${path}.${key}` : key, out, depth + 1);
      }
      break;
    case 'array': {
      const checks = (def.checks ?? []) as Array<{ _zod: { def: { check: string } } }>;
      const capped = checks.some((c) => ['max_length', 'length_equals'].includes(c._zod.def.check));
      if (!capped) out.push(`${path}: list without a maximum length`);
      unbounded(def.element as z.ZodType, `${path}[]`, out, depth + 1);
      break;
    }
    case 'record':
      unbounded(def.keyType as z.ZodType, `${path}{key}`, out, depth + 1);
      unbounded(def.valueType as z.ZodType, `${path}{}`, out, depth + 1);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) unbounded(option, path, out, depth + 1);
      break;
    case 'intersection':
      unbounded(def.left as z.ZodType, path, out, depth + 1);
      unbounded(def.right as z.ZodType, path, out, depth + 1);
      break;
    case 'lazy':
      unbounded((def.getter as () => z.ZodType)(), path, out, depth + 1);
      break;
    default:
      // enum, literal, boolean, null, undefined, date, transform, unknown...: bounded by nature or no input.
      break;
  }
  return out;
}

describe('every request field says what the database can hold', () => {
  it.each(listEndpoints().map(({ id, endpoint }) => ({ id, endpoint })))('$id', ({ endpoint }) => {
    expect(unbounded(endpoint.input, '', [])).toEqual([]);
  });
});
