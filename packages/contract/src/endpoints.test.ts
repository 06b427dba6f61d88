import { describe, expect, it } from 'vitest';
import { listEndpoints } from './endpoints.js';

const all = listEndpoints();

describe('the endpoint table', () => {
  it('has one entry per method and path', () => {
    const keys = all.map((e) => `${e.endpoint.method} ${e.endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps every path under /v1.0 (the spec’s message calls are the documented exception)', () => {
    // Spec section 7 names the inbox calls `message/...` and the script-error call `save_error_logger`
    // without /v1.0; DESIGN section 4 keeps those paths. Nothing else may leave /v1.0.
    const outside = (path: string) => path.startsWith('/message/') || path === '/save_error_logger';
    for (const { id, endpoint } of all) {
      expect(endpoint.path.startsWith('/v1.0/') || outside(endpoint.path), id).toBe(true);
    }
  });

  it('names its roles on every endpoint that is not public: nothing is open by default', () => {
    for (const { id, endpoint } of all) {
      if (endpoint.access !== 'public') expect(endpoint.access.length, id).toBeGreaterThan(0);
      if (endpoint.access === 'public') expect(endpoint.token2, id).toBe(false);
    }
  });

  it('has examples its own schema accepts, as they travel (query values are text)', () => {
    for (const { id, endpoint } of all) {
      const sent =
        endpoint.method === 'GET'
          ? Object.fromEntries(Object.entries(endpoint.example as object).map(([k, v]) => [k, String(v)]))
          : endpoint.example;
      const parsed = endpoint.input.safeParse(sent);
      expect(parsed.success, `${id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
