import { isBase58, isPublicKey } from '@/lib/solana/keys';

/**
 * The sign-in challenge text (SPEC 2.2; DESIGN.md "Sign-in"): a subset of Sign-In With
 * Solana, so wallets that parse SIWS show it as a sign-in. Lines joined by `\n`, no trailing
 * newline.
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

const HEADER_SUFFIX = ' wants you to sign in with your Solana account:';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOMAIN = /^[a-z0-9.-]+(:\d{1,5})?$/;

/** Nonces are base58 of 16 to 64 characters (lib/auth/issue-challenge.ts writes those of 18 random bytes). */
const isNonce = (text: string) => text.length >= 16 && isBase58(text, 64);

export const MAX_SIGN_IN_MESSAGE_LENGTH = 1024;

export function formatSignInMessage(f: SignInFields): string {
  return [
    `${f.domain}${HEADER_SUFFIX}`,
    f.pubkey,
    '',
    SIGN_IN_STATEMENT,
    '',
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt.toISOString()}`,
    `Expiration Time: ${f.expiresAt.toISOString()}`,
  ].join('\n');
}

/** Strict parse: exactly the eight lines `formatSignInMessage` writes, or null. */
export function parseSignInMessage(text: string): SignInFields | null {
  if (text.length > MAX_SIGN_IN_MESSAGE_LENGTH) return null;
  const lines = text.split('\n');
  if (lines.length !== 8) return null;
  const [header, pubkey, blank1, statement, blank2, nonceLine, issuedLine, expiresLine] = lines;
  if (!header.endsWith(HEADER_SUFFIX) || blank1 !== '' || blank2 !== '' || statement !== SIGN_IN_STATEMENT) return null;
  const domain = header.slice(0, -HEADER_SUFFIX.length);
  const nonce = field(nonceLine, 'Nonce: ');
  const issued = field(issuedLine, 'Issued At: ');
  const expires = field(expiresLine, 'Expiration Time: ');
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
