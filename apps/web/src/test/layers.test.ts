import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import rules of `npm run lint:layers` (.dependency-cruiser.cjs): they must catch an import
 * against the flow, and see the console's real imports (an unresolved import would pass unchecked).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

const tmp = mkdtempSync(join(tmpdir(), 'layers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes files under a temporary tree laid out like the repository and cruises its apps/web/src. */
async function cruiseFixture(files: Record<string, string>) {
  const base = mkdtempSync(join(tmp, 'case-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, 'apps/web/src', path)), { recursive: true });
    writeFileSync(join(base, 'apps/web/src', path), text);
  }
  const { output } = await cruise(['apps/web/src'], {
    baseDir: base,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    tsPreCompilationDeps: true,
  });
  const result = output as ICruiseResult;
  const strip = (p: string) => p.replace('apps/web/src/', '');
  return result.summary.violations.map((v) => `${v.rule.name}: ${strip(v.from)} -> ${strip(v.to)}`).sort();
}

describe('console import rules', () => {
  it('accept imports that flow shared -> features -> app', async () => {
    const violations = await cruiseFixture({
      'shared/http.ts': 'export const call = 1;\n',
      'i18n/index.ts': "import { call } from '../shared/http';\nexport const t = call;\n",
      'features/orders/api.ts': "import { call } from '../../shared/http';\nexport const list = call;\n",
      'features/orders/Page.tsx':
        "import { t } from '../../i18n';\nimport { list } from './api';\nexport default t + list;\n",
      'app/pages.ts': "import Page from '../features/orders/Page';\nexport const pages = [Page];\n",
      'main.tsx': "import { pages } from './app/pages';\nexport default pages;\n",
    });
    expect(violations).toEqual([]);
  });

  it('refuse shared or i18n importing up, a feature importing another, anything but the entries importing app', async () => {
    const violations = await cruiseFixture({
      'app/session.ts': 'export const session = 1;\n',
      'shared/list.ts': "import { page } from '../features/funds/Page';\nexport const list = page;\n",
      'i18n/resources.ts': "import { session } from '../app/session';\nexport const r = session;\n",
      'features/funds/Page.tsx': "import { session } from '../../app/session';\nexport const page = session;\n",
      'features/orders/Page.tsx': "import { page } from '../funds/Page';\nexport default page;\n",
    });
    expect(violations).toEqual([
      'web-app-is-top: features/funds/Page.tsx -> app/session.ts',
      'web-app-is-top: i18n/resources.ts -> app/session.ts',
      'web-feature-not-sideways: features/orders/Page.tsx -> features/funds/Page.tsx',
      'web-shared-not-up: i18n/resources.ts -> app/session.ts',
      'web-shared-not-up: shared/list.ts -> features/funds/Page.tsx',
    ]);
  });

  it('refuse an import cycle, also one closed by type imports', async () => {
    const violations = await cruiseFixture({
      'shared/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'shared/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'shared/Table.ts':
        "import { cells } from './cells';\nexport type Column = { key: string };\nexport const t = cells;\n",
      'shared/cells.ts': "import type { Column } from './Table';\nexport const cells = (c: Column) => c.key;\n",
    });
    expect(violations).toEqual([
      'web-no-cycle: shared/a.ts -> shared/b.ts',
      'web-no-cycle: shared/cells.ts -> shared/Table.ts',
    ]);
    const severity = Object.fromEntries((config.forbidden ?? []).map((r) => [r.name, r.severity]));
    expect(severity['web-no-cycle']).toBe('error');
  });

  // Parses the whole console: seconds alone, far more when every suite runs at once on two cores.
  it("resolve every one of the console's own imports with the real options", { timeout: 90_000 }, async () => {
    const { options } = config;
    const { output } = await cruise(
      ['apps/web/src'],
      { ...options, baseDir: ROOT, validate: true, ruleSet: config },
      undefined,
      { tsConfig: extractTSConfig(join(ROOT, 'apps/web/tsconfig.json')) },
    );
    const result = output as ICruiseResult;
    const local = result.modules.flatMap((m) =>
      m.dependencies.filter((d) => d.module.startsWith('.')).map((d) => ({ from: m.source, ...d })),
    );
    expect(local.length).toBeGreaterThan(300);
    expect(local.filter((d) => d.couldNotResolve).map((d) => `${d.from}: ${d.module}`)).toEqual([]);
    expect(local).toContainEqual(
      expect.objectContaining({
        from: 'apps/web/src/features/orders/OrderListPage.tsx',
        resolved: 'apps/web/src/shared/list/ListTable.tsx',
      }),
    );
    expect(result.summary.violations.filter((v) => v.rule.severity === 'error')).toEqual([]);
  });
});
