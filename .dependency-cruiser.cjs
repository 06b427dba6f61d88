/**
 * Import-flow rules, checked by `npm run lint:*` (dependency-cruiser).
 * Each area keeps its own section; `forbidden` is their union.
 */

// ---- serverRules: apps/server/src -------------------------------------------------------------
// No cycles; platform/ and db/ are below the modules; modules sit below the process entry points.
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
// ---- end serverRules ---------------------------------------------------------------------------

module.exports = {
  forbidden: [...serverRules],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)(node_modules|dist)/' },
  },
};
