/**
 * The errors next-auth's `solana` provider reports to `signIn()` (lib/web/server/next-auth-options.ts,
 * server-only) and the page reads back (lib/web/browser/wallet-sign-in.ts): one spelling for both sides.
 */

/** The shared auth rate limit was hit. */
export const SIGN_IN_RATE_LIMITED = 'RateLimited';
/** The service cannot check the signature now (e.g. the database is down). */
export const SIGN_IN_UNAVAILABLE = 'Unavailable';
