import { createSignInMessageText, parseSignInMessageText } from '@solana/wallet-standard-util';
import { isBase58, isPublicKey } from '@/lib/core/base58';

/**
 * The sign-in challenge text (SPEC 2.2; DESIGN.md "Sign-in"): a Sign-In With Solana message,
 * written and read by wallet-standard's own SIWS grammar (`@solana/wallet-standard-util`), so
 * the server, the page and a wallet's `solana:signIn` agree on every byte. Lines joined by
 * `\n`, no trailing newline. Browser-safe: the page reads challenges with `signInInputOf`.
 */
export const SIGN_IN_STATEMENT =
  'Sign in to the Identity Tag Service. This request only proves you own this account: it will not trigger a blockchain transaction or cost any fees.';

export interface SignInFields {
  domain: string;
  pubkey: string;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** The SIWS fields a challenge carries; the names are wallet-standard's `SolanaSignInInput`. */
export interface SignInInput {
  domain: string;
  address: string;
  statement?: string;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
}

/** The fields a challenge may carry: the ones the server writes. */
const CHALLENGE_FIELDS = new Set(['domain', 'address', 'statement', 'nonce', 'issuedAt', 'expirationTime']);

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOMAIN = /^[a-z0-9.-]+(:\d{1,5})?$/;

/** Nonces are base58 of 16 to 64 characters (lib/features/auth/issue-challenge.ts writes those of 18 random bytes). */
const isNonce = (text: string) => text.length >= 16 && isBase58(text, 64);

export const MAX_SIGN_IN_MESSAGE_LENGTH = 1024;

export function formatSignInMessage(f: SignInFields): string {
  return createSignInMessageText({
    domain: f.domain,
    address: f.pubkey,
    statement: SIGN_IN_STATEMENT,
    nonce: f.nonce,
    issuedAt: f.issuedAt.toISOString(),
    expirationTime: f.expiresAt.toISOString(),
  });
}

/**
 * The SIWS fields of `text` when it is made only of the fields a challenge carries and the
 * grammar writes them back byte for byte; null otherwise (the page then signs the text as it
 * is, with `signMessage`, and the server refuses it).
 */
export function signInInputOf(text: string): SignInInput | null {
  const parsed = parseSignInMessageText(text);
  if (!parsed) return null;
  // The parser names every SIWS field, absent ones as undefined.
  const present = Object.entries(parsed).filter(([, value]) => value !== undefined);
  if (present.some(([key]) => !CHALLENGE_FIELDS.has(key))) return null;
  // SIWS's statement is one line; the parser would take misplaced field lines into it.
  if (parsed.statement?.includes('\n')) return null;
  const input = Object.fromEntries(present) as unknown as SignInInput;
  return createSignInMessageText(input) === text ? input : null;
}

/** Strict parse: exactly the message `formatSignInMessage` writes, with our statement, or null. */
export function parseSignInMessage(text: string): SignInFields | null {
  if (text.length > MAX_SIGN_IN_MESSAGE_LENGTH) return null;
  const input = signInInputOf(text);
  if (!input || input.statement !== SIGN_IN_STATEMENT) return null;
  const { domain, address: pubkey, nonce, issuedAt: issued, expirationTime: expires } = input;
  if (!DOMAIN.test(domain) || !isPublicKey(pubkey) || !nonce || !isNonce(nonce)) return null;
  if (!issued || !expires || !ISO_MS.test(issued) || !ISO_MS.test(expires)) return null;
  const issuedAt = new Date(issued);
  const expiresAt = new Date(expires);
  if (Number.isNaN(issuedAt.getTime()) || Number.isNaN(expiresAt.getTime())) return null;
  return { domain, pubkey, nonce, issuedAt, expiresAt };
}

/**
 * The nonce of a message too malformed to parse, when it carries exactly one well-formed
 * `Nonce:` line: verify consumes it anyway (SPEC 3.2, consumed whatever the outcome), so a
 * challenge cannot be kept alive by sending its signed text slightly altered.
 */
export function findNonceLine(text: string): string | null {
  let found: string | null = null;
  for (const line of text.split('\n')) {
    const nonce = field(line.replace(/\r$/, ''), 'Nonce: ');
    if (nonce === null || !isNonce(nonce)) continue;
    if (found !== null && found !== nonce) return null;
    found = nonce;
  }
  return found;
}

function field(line: string, prefix: string): string | null {
  return line.startsWith(prefix) ? line.slice(prefix.length) : null;
}
