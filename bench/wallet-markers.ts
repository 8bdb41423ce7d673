/**
 * Strings only wallet-adapter code contains (package names, its CSS classes, its context):
 * how the web benchmark and the browser tests tell a script carries wallet code.
 */
export const WALLET_MARKERS = [
  'wallet-adapter',
  'WalletProvider',
  'WalletContext',
  'WalletNotConnectedError',
  'wallet-standard:app-ready',
];
