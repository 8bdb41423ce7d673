/**
 * Strings only wallet-adapter code contains (package names, its CSS classes, its context):
 * how the web benchmark and the browser tests tell a script carries wallet code. Not the
 * names of wallet-adapter's errors: the pages' own errors follow them
 * (lib/web/browser/client-errors.ts) and ship without wallet-adapter.
 */
export const WALLET_MARKERS = ['wallet-adapter', 'WalletProvider', 'WalletContext', 'wallet-standard:app-ready'];
