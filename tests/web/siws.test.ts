import { createSignInMessageText, parseSignInMessageText } from '@solana/wallet-standard-util';
import { describe, expect, it } from 'vitest';
import {
  SIGN_IN_STATEMENT,
  formatSignInMessage,
  parseSignInMessage,
  signInInputOf,
} from '@/lib/features/auth/sign-in-message';
import { signedMessageIs } from '@/lib/web/browser/siws';

const ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
/** A challenge exactly as the server writes it (POST /v1/auth/challenge). */
const CHALLENGE = formatSignInMessage({
  domain: 'tags.example:3000',
  pubkey: ADDRESS,
  nonce: '7dKxq3oP1wZtY5bNcL2mVf',
  issuedAt: new Date('2026-11-02T10:00:00.000Z'),
  expiresAt: new Date('2026-11-02T10:05:00.000Z'),
});
const FIELDS = {
  domain: 'tags.example:3000',
  address: ADDRESS,
  statement: SIGN_IN_STATEMENT,
  nonce: '7dKxq3oP1wZtY5bNcL2mVf',
  issuedAt: '2026-11-02T10:00:00.000Z',
  expirationTime: '2026-11-02T10:05:00.000Z',
};

describe("the server's challenge as Sign-In With Solana fields", () => {
  it('parses into exactly the fields the server issued', () => {
    expect(signInInputOf(CHALLENGE)).toEqual(FIELDS);
  });

  it('is read back by the server into the fields it issued', () => {
    expect(parseSignInMessage(CHALLENGE)).toEqual({
      domain: 'tags.example:3000',
      pubkey: ADDRESS,
      nonce: '7dKxq3oP1wZtY5bNcL2mVf',
      issuedAt: new Date('2026-11-02T10:00:00.000Z'),
      expiresAt: new Date('2026-11-02T10:05:00.000Z'),
    });
  });

  it("is written back byte for byte by wallet-standard's own SIWS writer (what a wallet renders)", () => {
    expect(createSignInMessageText(FIELDS)).toBe(CHALLENGE);
  });

  it('the grammar writes the optional parts only when present, and the page passes such a message on', () => {
    expect(createSignInMessageText({ domain: 'a.example', address: ADDRESS })).toBe(
      `a.example wants you to sign in with your Solana account:\n${ADDRESS}`,
    );
    expect(createSignInMessageText({ domain: 'a.example', address: ADDRESS, nonce: 'abc' })).toBe(
      `a.example wants you to sign in with your Solana account:\n${ADDRESS}\n\nNonce: abc`,
    );
    expect(
      parseSignInMessageText(`a.example wants you to sign in with your Solana account:\n${ADDRESS}\n\nNonce: abc`),
    ).toEqual({
      domain: 'a.example',
      address: ADDRESS,
      nonce: 'abc',
    });
    expect(signInInputOf(`a.example wants you to sign in with your Solana account:\n${ADDRESS}\n\nNonce: abc`)).toEqual(
      {
        domain: 'a.example',
        address: ADDRESS,
        nonce: 'abc',
      },
    );
  });
});

describe('challenges that are not plain SIWS go to signMessage (null)', () => {
  const lines = CHALLENGE.split('\n');
  const edit = (i: number, line: string) => lines.map((l, j) => (j === i ? line : l)).join('\n');
  it.each([
    ['no SIWS header', edit(0, 'Sign in to tags.example')],
    ['an empty domain', edit(0, ' wants you to sign in with your Solana account:')],
    ['a field the page does not pass (URI)', edit(5, 'URI: https://tags.example')],
    ['fields out of order', [...lines.slice(0, 5), lines[6], lines[5], lines[7]].join('\n')],
    ['a field twice', [...lines, lines[5]].join('\n')],
    ['an empty field value', edit(5, 'Nonce: ')],
    ['a two-line statement', [...lines.slice(0, 4), 'More words.', ...lines.slice(4)].join('\n')],
    ['a missing blank line before the fields', [...lines.slice(0, 4), ...lines.slice(5)].join('\n')],
    ['a trailing newline', `${CHALLENGE}\n`],
    ['Resources', `${CHALLENGE}\nResources:\n- https://tags.example`],
  ])('%s', (_name, text) => {
    expect(signInInputOf(text)).toBeNull();
    expect(parseSignInMessage(text)).toBeNull();
  });
});

describe('signedMessageIs', () => {
  const bytes = new TextEncoder().encode(CHALLENGE);
  it('accepts the exact UTF-8 bytes of the challenge', () => {
    expect(signedMessageIs(bytes, CHALLENGE)).toBe(true);
  });
  it.each([
    ['a byte changed', Uint8Array.from(bytes, (b, i) => (i === 0 ? b ^ 1 : b))],
    ['a byte missing', bytes.slice(1)],
    ['a byte added', Uint8Array.from([...bytes, 10])],
    ['nothing', new Uint8Array()],
  ])('refuses %s', (_name, signed) => {
    expect(signedMessageIs(signed, CHALLENGE)).toBe(false);
  });
});
