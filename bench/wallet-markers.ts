/**
 * Strings only wallet code contains, kept through minification: wallet-adapter's (package
 * names, its CSS classes, its context), web3.js v1's (an error of its Transaction) and the
 * Buffer polyfill's (an error of its writes), which web3.js brings. How the web benchmark and
 * the browser tests tell a script carries wallet code. Not the names of wallet-adapter's
 * errors: the pages' own errors follow them (lib/web/browser/client-errors.ts) and ship
 * without wallet-adapter.
 */
export const WALLET_MARKERS = [
  'wallet-adapter',
  'WalletProvider',
  'WalletContext',
  'wallet-standard:app-ready',
  'Transaction recentBlockhash required',
  'Attempt to write outside buffer bounds',
];
