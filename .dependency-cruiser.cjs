/**
 * The rings of lib/ (docs/decisions/rings.md), checked by `npm run lint`.
 *   1 lib/core           pure rules, types, configuration parsing: no database, no cluster
 *   2 lib/db, lib/chain  the mirror (PostgreSQL) and the chain (RPC, records, transactions)
 *   3 lib/features/*     auth < identity < feed < registry < lifecycle < integrations < gateways < payments < webhooks < indexer < schedule
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
  'gateways',
  'payments',
  'webhooks',
  'indexer',
  'schedule',
];

/** A rule: a module whose path matches `from` imports none whose path matches `to`. */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: to } };
}

/** A ring of lib/ imports only the `allowed` folders of lib/, and never app/ or components/. */
function ringImportsOnly(name, comment, ring, allowed) {
  const others = `lib/(?!${allowed.map((folder) => `${folder}/`).join('|')})`;
  return forbid(name, comment, `^lib/${ring}/`, `^(${others}|app/|components/)`);
}

const featureRules = FEATURES.map((feature, i) => {
  const above = FEATURES.slice(i + 1);
  const before = FEATURES.slice(0, i).join(', ') || 'none';
  return forbid(
    `feature-${feature}-imports-only-earlier-features`,
    `lib/features/${feature} may import only the features before it: ${before}`,
    `^lib/features/${feature}/`,
    `^lib/features/(${above.join('|')})/`,
  );
}).slice(0, -1); // the last feature may import every other

module.exports = {
  forbidden: [
    ringImportsOnly(
      'observability-is-a-leaf',
      'lib/observability imports nothing of the service: every ring may log and count through it',
      'observability',
      ['observability'],
    ),
    ringImportsOnly(
      'core-is-the-bottom-ring',
      'lib/core holds pure rules and types: it imports no other ring of lib/',
      'core',
      ['core', 'observability'],
    ),
    ringImportsOnly('db-imports-only-core', 'the mirror (lib/db) sits on lib/core only', 'db', [
      'core',
      'db',
      'observability',
    ]),
    ringImportsOnly(
      'chain-imports-only-core-and-db',
      'the chain (lib/chain) sits on lib/core and may name the mirror (ChainAndMirror); never a feature',
      'chain',
      ['core', 'db', 'chain', 'observability'],
    ),
    forbid(
      'features-import-no-http-or-web',
      'features are called by the HTTP layer and the pages, never the reverse',
      '^lib/features/',
      '^(lib/(http|web)/|app/|components/)',
    ),
    ...featureRules,
    forbid(
      'http-imports-no-web',
      'lib/web (pages, server actions, the browser) builds on lib/http, not the reverse',
      '^lib/http/',
      '^(lib/web/|app/|components/)',
    ),
    {
      name: 'every-module-in-a-ring',
      comment:
        'a module of lib/ lives in a ring folder (lib/core, lib/db, lib/chain, lib/features/*, lib/http, lib/web, lib/observability), never at the root',
      severity: 'error',
      from: {},
      to: { path: '^lib/[^/]+\\.(ts|tsx|js|mjs|cjs)$' },
    },
    forbid(
      'lib-imports-no-routes',
      'app/ holds the routes and components/ the React UI: lib/ imports neither',
      '^lib/',
      '^(app|components)/',
    ),
    {
      name: 'tools-import-no-lib',
      comment: 'the localnet, the program and the packages stand apart from the web app (program/tests may drive it)',
      severity: 'error',
      from: { path: '^(localnet|program|packages)/', pathNot: ['^program/tests/'] },
      to: { path: '^(lib|app)/' },
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
