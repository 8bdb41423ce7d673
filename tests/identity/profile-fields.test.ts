import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/sign-in';
import { appUrl, closeTestDb, invalidRequest, patchIdentity, readRow, seedIdentity } from './helpers';

afterAll(closeTestDb);

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const CONTROL = 'must not contain control characters or line breaks';

/** Accepted: the field as sent → the value stored and shown. */
const ACCEPTED: Record<string, [field: string, sent: string, stored: string | null]> = {
  'displayName trimmed': ['displayName', '  Alice \t', 'Alice'],
  'displayName NFC-normalised': ['displayName', 'Ame\u0301lie', 'Amélie'],
  'displayName of 50 characters': ['displayName', 'a'.repeat(50), 'a'.repeat(50)],
  'displayName of 50 emoji (one character each)': ['displayName', '🦊'.repeat(50), '🦊'.repeat(50)],
  'displayName with a ZWJ emoji': ['displayName', 'family 👩‍👩‍👧', 'family 👩‍👩‍👧'],
  'displayName in Hebrew (right to left)': ['displayName', 'אליס', 'אליס'],
  'displayName in Arabic': ['displayName', 'أليس', 'أليس'],
  'displayName of 51 spaces around a name': ['displayName', `${' '.repeat(30)}Bob${' '.repeat(30)}`, 'Bob'],
  'bio of 280 characters': ['bio', 'b'.repeat(280), 'b'.repeat(280)],
  'bio with line breaks (CRLF → LF)': ['bio', 'one\r\ntwo\nthree', 'one\ntwo\nthree'],
  'avatar https URL': [
    'avatar',
    'https://cdn.example.com/u/alice.png?size=128',
    'https://cdn.example.com/u/alice.png?size=128',
  ],
  'avatar normalised': ['avatar', 'HTTPS://CDN.Example.com', 'https://cdn.example.com/'],
  'preferredToken symbol, lower case': ['preferredToken', 'pyusd', 'PYUSD'],
  'preferredToken EURC': ['preferredToken', 'EURC', 'EURC'],
  'preferredToken mint address': ['preferredToken', MINT, MINT],
  'empty string clears': ['displayName', '', null],
};

/** Refused with 400 and this exact message. */
const REFUSED: Record<string, [body: unknown, message: string]> = {
  'displayName of 51 characters': [{ displayName: 'a'.repeat(51) }, '`displayName`: must be at most 50 characters'],
  'displayName of 51 emoji': [{ displayName: '🦊'.repeat(51) }, '`displayName`: must be at most 50 characters'],
  'displayName of 10,000 characters': [
    { displayName: 'x'.repeat(10_000) },
    '`displayName`: must be at most 50 characters',
  ],
  'displayName with a newline': [{ displayName: 'a\nb' }, `\`displayName\`: ${CONTROL}`],
  'displayName with NUL': [{ displayName: 'a\u0000b' }, `\`displayName\`: ${CONTROL}`],
  'displayName with ESC (terminal colours)': [{ displayName: '\u001b[31mred' }, `\`displayName\`: ${CONTROL}`],
  'displayName with a C1 control': [{ displayName: 'a\u0085b' }, `\`displayName\`: ${CONTROL}`],
  'displayName with DEL': [{ displayName: 'a\u007Fb' }, `\`displayName\`: ${CONTROL}`],
  'displayName with RLO (bidi override)': [{ displayName: 'evil\u202Egnp.exe' }, `\`displayName\`: ${CONTROL}`],
  'displayName with LRE': [{ displayName: '\u202Aa' }, `\`displayName\`: ${CONTROL}`],
  'displayName with RLI (bidi isolate)': [{ displayName: 'a\u2067b\u2069' }, `\`displayName\`: ${CONTROL}`],
  'displayName with a line separator': [{ displayName: 'a\u2028b' }, `\`displayName\`: ${CONTROL}`],
  'displayName with a lone surrogate': [{ displayName: 'a\uD800b' }, '`displayName`: must be valid Unicode text'],
  'displayName a number': [{ displayName: 42 }, '`displayName`: Invalid input: expected string, received number'],
  'displayName an array': [{ displayName: ['a'] }, '`displayName`: Invalid input: expected string, received array'],
  'displayName an object': [
    { displayName: { text: 'a' } },
    '`displayName`: Invalid input: expected string, received object',
  ],
  'displayName a boolean': [{ displayName: true }, '`displayName`: Invalid input: expected string, received boolean'],
  'bio of 281 characters': [{ bio: 'b'.repeat(281) }, '`bio`: must be at most 280 characters'],
  'bio of 10,000 characters': [{ bio: 'b'.repeat(10_000) }, '`bio`: must be at most 280 characters'],
  'bio with a tab': [{ bio: 'a\tb' }, '`bio`: must not contain control characters other than line breaks'],
  'bio with a bidi override': [
    { bio: 'x\u202Dy' },
    '`bio`: must not contain control characters other than line breaks',
  ],
  'avatar http:': [{ avatar: 'http://example.com/a.png' }, '`avatar`: must be an https: URL'],
  'avatar javascript:': [{ avatar: 'javascript:alert(1)' }, '`avatar`: must be an https: URL'],
  'avatar data:': [{ avatar: 'data:image/png;base64,iVBORw0KGgo=' }, '`avatar`: must be an https: URL'],
  'avatar with credentials': [
    { avatar: 'https://user:pass@example.com/a.png' },
    '`avatar`: must not contain credentials',
  ],
  'avatar with a user name only': [
    { avatar: 'https://user@example.com/a.png' },
    '`avatar`: must not contain credentials',
  ],
  'avatar relative': [{ avatar: '/a.png' }, '`avatar`: must be an absolute https: URL'],
  'avatar with a tab inside (URL parsers drop it silently)': [
    { avatar: 'https://exa\tmple.com/' },
    `\`avatar\`: ${CONTROL}`,
  ],
  'avatar over 2048 characters': [
    { avatar: `https://example.com/${'a'.repeat(2030)}` },
    '`avatar`: must be at most 2048 characters',
  ],
  'avatar of 10,000 characters': [
    { avatar: `https://example.com/${'a'.repeat(10_000)}` },
    '`avatar`: must be at most 2048 characters',
  ],
  'preferredToken unknown symbol': [
    { preferredToken: 'DOGE' },
    '`preferredToken`: must be one of SOL, USDC, USDT, PYUSD, EURC or a token mint address',
  ],
  'preferredToken not base58': [
    { preferredToken: '0OIl'.repeat(11) },
    '`preferredToken`: must be one of SOL, USDC, USDT, PYUSD, EURC or a token mint address',
  ],
  'preferredToken base58 but not 32 bytes': [
    { preferredToken: '1'.repeat(40) },
    '`preferredToken`: must be one of SOL, USDC, USDT, PYUSD, EURC or a token mint address',
  ],
};

describe('profile field limits (DESIGN.md "Identity")', () => {
  let me: { token: string; pubkey: string };
  beforeAll(async () => {
    const s = await signIn(appUrl);
    me = { token: s.token, pubkey: s.keypair.publicKey };
  });

  for (const [name, [field, sent, stored]] of Object.entries(ACCEPTED)) {
    it(`accepts ${name}`, async () => {
      const row = await seedIdentity({ owner: me.pubkey, [field]: 'before' });
      const res = await patchIdentity(row.tag, { [field]: sent }, me.token);
      expect(res.status).toBe(200);
      expect((res.json as Record<string, unknown>)[field]).toBe(stored);
      expect((await readRow(row.tag))![field as 'bio']).toBe(stored);
    });
  }

  for (const [name, [body, message]] of Object.entries(REFUSED)) {
    it(`refuses ${name}`, async () => {
      const row = await seedIdentity({ owner: me.pubkey, displayName: 'before', bio: 'before' });
      const res = await patchIdentity(row.tag, body, me.token);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(invalidRequest(message));
      expect(await readRow(row.tag)).toEqual(row);
    });
  }
});
