// `npm run lint`: ESLint's and typescript-eslint's recommended rules, React's hook rules and
// Next.js's own (recommended + Core Web Vitals); formatting is Prettier's (.prettierrc.json),
// so eslint-config-prettier turns off every rule that would judge it.
// The typescript-eslint rules are the syntactic set: the type-aware one would type-check the
// tree a second time, and `npm test` already runs `tsc`.
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import prettier from 'eslint-config-prettier/flat';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';
import { houseRules, publicApisAtTheWalletBoundary, publicApisOnly } from './scripts/lint/house-rules.mjs';

export default defineConfig(
  {
    ignores: [
      '.next/**',
      '.next-*/**',
      '.data/**',
      'next-env.d.ts',
      'program/build/**',
      'packages/client/src/schema.d.ts',
      'packages/tag-registry/src/generated/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // where React code is: elsewhere `use*` is not a hook (Playwright's fixtures call `use`),
    // and the React Compiler rules would compile every file of the tree for nothing
    files: ['**/*.tsx', 'components/**'],
    ...reactHooks.configs.flat.recommended,
  },
  nextPlugin.configs.recommended,
  nextPlugin.configs['core-web-vitals'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // a leading underscore names what is left unused on purpose: a field a rest pattern drops, a callback's argument
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // a `let` that a closure reads before its one assignment cannot be a `const`
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      ...publicApisOnly,
    },
  },
  {
    // the wallet boundary: wallet-adapter needs web3.js v1 here, and it loads with the wallet dialog
    files: ['components/wallet/**', 'lib/web/browser/wire-transaction.ts'],
    rules: { ...publicApisAtTheWalletBoundary },
  },
  {
    // the house's rules (scripts/lint/house-rules.mjs)
    files: ['app/**/route.ts', 'app/**/route.tsx'],
    plugins: { house: houseRules },
    rules: { 'house/route-is-dynamic': 'error', 'house/heavy-work-is-at-the-door': 'error' },
  },
  {
    files: ['app/v1/**/route.ts'],
    ignores: ['app/v1/\\[\\[...rest\\]\\]/**'], // the catch-all answers unknown paths' 404
    plugins: { house: houseRules },
    rules: { 'house/v1-route-exports-every-method': 'error' },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter's pattern, written even when empty
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // tests read answers' JSON loosely; their assertions check it
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // when the root layout itself failed, "Home" is a full page load, not a client navigation
    files: ['app/global-error.tsx'],
    rules: { '@next/next/no-html-link-for-pages': 'off' },
  },
  {
    // the scripts served as they are to the browser, and the components that run there
    files: ['public/**/*.js', 'components/**', 'lib/web/browser/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  prettier,
);
