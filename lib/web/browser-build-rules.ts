import path from 'node:path';
import type { NextConfig } from 'next';

/**
 * The build-time rule that keeps Node.js built-ins out of the browser's bundle
 * (next.config.ts `turbopack.rules`; lib/README.md "Layers"). Turbopack polyfills `node:crypto`
 * and others for the browser, so a client component reaching one would otherwise build and
 * ship. Every module of the app compiled for the browser whose text imports a `node:` module
 * goes through lib/web/refuse-node-in-browser.cjs, which fails the build naming the module and
 * the built-in (tests/layering/bundle-boundaries.test.ts). Modules of node_modules are not
 * checked (`foreign`); server modules are never compiled for the browser (`server-only`).
 *
 * `repo`: the repository's root, where lib/ is.
 */
export function browserBuildRules(repo: string): NonNullable<NonNullable<NextConfig['turbopack']>['rules']> {
  return {
    '*.{ts,tsx,js,jsx,mjs,cjs}': {
      condition: { all: ['browser', { not: 'foreign' }, { content: NODE_IMPORT_TEXT }] },
      loaders: [path.join(repo, 'lib/web/refuse-node-in-browser.cjs')],
    },
  };
}

/** A cheap first pass, in Turbopack itself: text that may import a `node:` module. */
const NODE_IMPORT_TEXT = /['"]node:/;
