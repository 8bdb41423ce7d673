/**
 * The rings of lib/ (docs/decisions/rings.md), checked by `npm run lint`.
 *   1 lib/core           pure rules, types, configuration parsing: no database, no cluster
 *   2 lib/db, lib/chain  the mirror (PostgreSQL) and the chain (RPC, records, transactions)
 *   3 lib/features/*     auth < identity < feed < registry < lifecycle < integrations < payments < webhooks < indexer
 *   4 lib/http, lib/web  route wrappers, pages, the browser
 *   leaf lib/observability imports nothing of the service's; every ring may log and count.
 * A module imports its own ring or the rings below it; a feature imports only the features
 * before it in the list above. (Target, not yet checked: the tools beside the app, localnet/ and
 * program/, import no lib/ once the program's client is generated into a package of its own.)
 */
const FEATURES = [
  'auth',
  'identity',
  'feed',
  'registry',
  'lifecycle',
  'integrations',
  'payments',
  'webhooks',
  'indexer',
];

const featureRules = FEATURES.map((feature, i) => {
  const above = FEATURES.slice(i + 1);
  return {
    name: `feature-${feature}-imports-only-earlier-features`,
    comment: `lib/features/${feature} may import only the features before it: ${FEATURES.slice(0, i).join(', ') || 'none'}`,
    severity: 'error',
    from: { path: `^lib/features/${feature}/` },
    to: { path: above.length ? `^lib/features/(${above.join('|')})/` : '^$' },
  };
}).filter((rule) => rule.to.path !== '^$');

module.exports = {
  forbidden: [
    {
      name: 'observability-is-a-leaf',
      comment: 'lib/observability imports nothing of the service: every ring may log and count through it',
      severity: 'error',
      from: { path: '^lib/observability/' },
      to: { path: '^(lib/(?!observability/)|app/|components/)' },
    },
    {
      name: 'core-is-the-bottom-ring',
      comment: 'lib/core holds pure rules and types: it imports no other ring of lib/',
      severity: 'error',
      from: { path: '^lib/core/' },
      to: { path: '^(lib/(?!core/|observability/)|app/|components/)' },
    },
    {
      name: 'db-imports-only-core',
      comment: 'the mirror (lib/db) sits on lib/core only',
      severity: 'error',
      from: { path: '^lib/db/' },
      to: { path: '^(lib/(?!core/|db/|observability/)|app/|components/)' },
    },
    {
      name: 'chain-imports-only-core-and-db',
      comment: 'the chain (lib/chain) sits on lib/core and may name the mirror (ChainAndMirror); never a feature',
      severity: 'error',
      from: { path: '^lib/chain/' },
      to: { path: '^(lib/(?!core/|db/|chain/|observability/)|app/|components/)' },
    },
    {
      name: 'features-import-no-http-or-web',
      comment: 'features are called by the HTTP layer and the pages, never the reverse',
      severity: 'error',
      from: { path: '^lib/features/' },
      to: { path: '^(lib/(http|web)/|app/|components/)' },
    },
    ...featureRules,
    {
      name: 'http-imports-no-web',
      comment: 'lib/web (pages, server actions, the browser) builds on lib/http, not the reverse',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: '^(lib/web/|app/|components/)' },
    },
    {
      name: 'every-module-in-a-ring',
      comment:
        'a module of lib/ lives in a ring folder (lib/core, lib/db, lib/chain, lib/features/*, lib/http, lib/web, lib/observability), never at the root',
      severity: 'error',
      from: {},
      to: { path: '^lib/[^/]+\\.(ts|tsx|js|mjs|cjs)$' },
    },
    {
      name: 'lib-imports-no-routes',
      comment: 'app/ holds the routes and components/ the React UI: lib/ imports neither',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components)/' },
    },
    {
      name: 'tools-import-no-lib',
      comment: 'the localnet, the program and the packages stand apart from the web app (program/tests may drive it)',
      severity: 'error',
      from: { path: '^(localnet|program|packages)/', pathNot: ['^program/tests/', '^packages/client/generate\\.ts$'] },
      to: { path: '^lib/' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle anywhere in the app: lib/, app/ and components/',
      severity: 'error',
      from: { path: '^(lib|app|components)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next|\\.next-b|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
