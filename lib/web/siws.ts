/**
 * Sign-In With Solana on the page's side. The server's challenge
 * (lib/auth/sign-in-message.ts) is already a SIWS message; a wallet that offers
 * `solana:signIn` builds the text itself from input fields. So the page parses the
 * challenge back into exactly the fields the server issued, and only hands them to the wallet
 * when writing them out again gives the challenge text byte for byte: the wallet then shows
 * and signs exactly what the server will verify.
 */

/** The SIWS fields a challenge carries; the names are wallet-standard's `SolanaSignInInput`. */
export interface SignInFields {
  domain: string;
  address: string;
  statement?: string;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
}

const HEADER_SUFFIX = ' wants you to sign in with your Solana account:';

/** The field lines a challenge may carry, in the order SIWS writes them. */
const FIELD_LINES = [
  ['nonce', 'Nonce: '],
  ['issuedAt', 'Issued At: '],
  ['expirationTime', 'Expiration Time: '],
] as const;

/**
 * The SIWS text of `fields` (the grammar of wallet-standard's `createSignInMessageText`,
 * limited to the fields above): header, address, then a blank line and the statement, then a
 * blank line and the field lines, each part only when present.
 */
export function formatSignInText(fields: SignInFields): string {
  let text = `${fields.domain}${HEADER_SUFFIX}\n${fields.address}`;
  if (fields.statement) text += `\n\n${fields.statement}`;
  const lines = FIELD_LINES.filter(([key]) => fields[key]).map(([key, prefix]) => `${prefix}${fields[key]}`);
  if (lines.length > 0) text += `\n\n${lines.join('\n')}`;
  return text;
}

/**
 * The fields of a challenge, or null when it is not a SIWS message made only of the fields
 * above (a line the page does not know, a multi-line statement, a field out of order):
 * then the page signs the text as it is, with `signMessage`.
 */
export function parseSignInText(text: string): SignInFields | null {
  const lines = text.split('\n');
  if (lines.length < 2 || !lines[0].endsWith(HEADER_SUFFIX)) return null;
  const domain = lines[0].slice(0, -HEADER_SUFFIX.length);
  const address = lines[1];
  if (!domain || !address) return null;
  const fields: SignInFields = { domain, address };

  let rest = lines.slice(2);
  // A statement is the one line of its own block that is not a field line.
  if (rest.length >= 2 && rest[0] === '' && !isFieldLine(rest[1])) {
    if (rest[1] === '' || (rest.length > 2 && rest[2] !== '')) return null;
    fields.statement = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length === 0) return fields;
  if (rest[0] !== '' || rest.length < 2) return null;
  let next = 0;
  for (const line of rest.slice(1)) {
    const at = FIELD_LINES.findIndex(([, prefix], i) => i >= next && line.startsWith(prefix));
    if (at < 0) return null;
    const [key, prefix] = FIELD_LINES[at];
    const value = line.slice(prefix.length);
    if (!value) return null;
    fields[key] = value;
    next = at + 1;
  }
  return fields;
}

function isFieldLine(line: string): boolean {
  return FIELD_LINES.some(([, prefix]) => line.startsWith(prefix));
}

/**
 * What to hand `solana:signIn` for `challenge`: its fields, only when they write the challenge
 * back exactly; null means "use signMessage on the text instead".
 */
export function signInInputFor(challenge: string): SignInFields | null {
  const fields = parseSignInText(challenge);
  return fields && formatSignInText(fields) === challenge ? fields : null;
}

/** Whether the bytes a wallet says it signed are the challenge text, exactly. */
export function signedMessageIs(signedMessage: Uint8Array, challenge: string): boolean {
  const expected = new TextEncoder().encode(challenge);
  return signedMessage.length === expected.length && signedMessage.every((b, i) => b === expected[i]);
}
