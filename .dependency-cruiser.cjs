/**
 * Import rules, checked by `npm run lint:layers` (part of `npm run lint`, hence of `npm test`) over the
 * console's and the server's sources.
 * Each workspace keeps its rules in its own array below; `forbidden` joins them. A rule's `from` and
 * `to` paths are regular expressions on paths relative to the repository root.
 */

const WEB = '^apps/web/src/';

/**
 * The console (apps/web/src) is layered; imports flow one way, shared -> features -> app:
 * - shared/ and i18n/: what any page may use (HTTP, session and socket, list table, formats, the
 *   pieces several features show); they know no feature and no app module;
 * - features/<area>/: one area's pages; an area does not import another area (what two need goes
 *   down into shared/);
 * - app/: the shell, router, page table and the locale list; only app/ itself and main.tsx (the
 *   entry) import it. test/setup.ts, the test run's entry, registers the locale list as main.tsx does.
 */
const webRules = [
  {
    name: 'web-shared-not-up',
    comment: 'shared/ and i18n/ sit below features/ and app/: move the piece down, or pass it in',
    severity: 'error',
    from: { path: `${WEB}(shared|i18n)/` },
    to: { path: `${WEB}(features|app)/` },
  },
  {
    name: 'web-feature-not-sideways',
    comment: 'a feature does not import another feature: move what both need into shared/',
    severity: 'error',
    from: { path: `${WEB}features/([^/]+)/` },
    to: { path: `${WEB}features/`, pathNot: `${WEB}features/$1/` },
  },
  {
    name: 'web-app-is-top',
    comment: 'only app/ and the entry points (main.tsx, test/setup.ts) import app/',
    severity: 'error',
    from: { path: WEB, pathNot: `${WEB}(app/|main\\.tsx$|test/setup\\.ts$)` },
    to: { path: `${WEB}app/` },
  },
  {
    name: 'web-no-cycle',
    comment:
      'no import cycles within the console, type-only ones included: move the shared piece (often its types) into a module of its own',
    severity: 'error',
    from: { path: WEB },
    to: { path: WEB, circular: true },
  },
];

/**
 * The server (apps/server/src): no cycles; platform/ and db/ are below the modules; modules sit below
 * the process entry points (app.ts, main.ts, cli/, seed/).
 */
const serverRules = [
  {
    name: 'server-no-circular',
    comment:
      'A cycle makes the import order decide which value is undefined at start-up: break it by moving the shared piece down.',
    severity: 'error',
    from: { path: '^apps/server/src/' },
    to: { circular: true },
  },
  {
    name: 'server-platform-below-modules',
    comment: 'platform/ and db/ serve every module and know none of them.',
    severity: 'error',
    from: { path: '^apps/server/src/(platform|db)/', pathNot: '\\.test\\.ts$' },
    to: { path: '^apps/server/src/modules/' },
  },
  {
    name: 'server-modules-below-entry-points',
    comment: 'Modules are wired by app.ts; they do not reach up into it, main.ts, the command line or the seed.',
    severity: 'error',
    from: { path: '^apps/server/src/modules/', pathNot: '\\.test\\.ts$' },
    to: { path: '^apps/server/src/(app|main)\\.ts$|^apps/server/src/(cli|seed)/' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [...webRules, ...serverRules],
  options: {
    // Only the project's own files: packages are trusted, and not following them keeps the run short.
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['node_modules', '/dist/'] },
    // Type-only imports count: they tie layers together as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: `${__dirname}/apps/web/tsconfig.json` },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
