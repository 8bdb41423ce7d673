// The ABI two ways: the C source and the IDL must agree. The TypeScript client is generated
// from the IDL (packages/tag-registry; tests/abi/generated-client.test.ts keeps it in step).
import { getAddressDecoder } from '@solana/kit';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import idl from '@/program/idl/tag_registry.json';

/** The program's ABI lives in program/src/abi.h; the instructions beside it. */
const SRC_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const C_SOURCE = readdirSync(SRC_DIR)
  .sort()
  .map((f) => readFileSync(path.join(SRC_DIR, f), 'utf8'))
  .join('\n');
const sha8 = (s: string) => [...createHash('sha256').update(s).digest().subarray(0, 8)];
/** A `#define NAME <number>` of the C source, as a number. */
const cDefine = (name: string) => Number(new RegExp(`#define ${name} (\\d+)\\b`).exec(C_SOURCE)?.[1]);
/** An 8-byte discriminator as the C source writes it: one little-endian u64 literal. */
const le = (bytes: number[]) => `0x${Buffer.from(bytes).reverse().toString('hex')}ull`;
/** `AlreadyRegistered` → `ALREADY_REGISTERED`, the C enum's spelling of an IDL error name. */
const upperSnake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();

const NAMES = idl.instructions.map((ix) => ix.name);

describe('discriminators', () => {
  it('the IDL holds the Anchor sha256 prefixes, and the C source the same values', () => {
    expect(idl.accounts.map((a) => a.name)).toEqual(['TagRecord']);
    expect(idl.accounts[0]!.discriminator).toEqual(sha8('account:TagRecord'));
    expect(C_SOURCE).toContain(`#define TAG_RECORD_DISCRIMINATOR ${le(sha8('account:TagRecord'))}`);
  });

  it.each(NAMES)('%s: the IDL and the C source agree', (name) => {
    const discriminator = idl.instructions.find((ix) => ix.name === name)!.discriminator;
    expect(discriminator).toEqual(sha8(`global:${name}`));
    expect(C_SOURCE).toContain(`#define ${name.toUpperCase()}_DISCRIMINATOR ${le(discriminator)}`);
  });

  it('the C source dispatches every instruction of the IDL', () => {
    // register_tag from the entrypoint; the lifecycle calls from their table in lifecycle.h.
    const entry = readFileSync(path.join(SRC_DIR, 'tag_registry.c'), 'utf8');
    expect(entry).toContain('if (discriminator == REGISTER_TAG_DISCRIMINATOR) return register_tag(&in);');
    const lifecycle = readFileSync(path.join(SRC_DIR, 'lifecycle.h'), 'utf8');
    for (const name of NAMES.filter((n) => n !== 'register_tag')) {
      expect(lifecycle).toContain(`{${name.toUpperCase()}_DISCRIMINATOR, ${name}, `);
    }
  });
});

describe('instructions', () => {
  /** lifecycle.h's table row of an instruction: data length, accounts, whether the owner signs. */
  const lifecycleRow = (name: string) => {
    const row = new RegExp(
      `\\{${name.toUpperCase()}_DISCRIMINATOR, ${name}, (\\w+), (\\d+), ([01])(?:, \\d+)*\\}`,
    ).exec(C_SOURCE);
    return row && { dataBytes: row[1]!, accounts: Number(row[2]), ownerSigns: row[3] === '1' };
  };
  const argBytes = { pubkey: 32 } as Record<string, number>;

  it.each(NAMES.filter((n) => n !== 'register_tag'))(
    "%s: the C table takes the IDL's accounts and argument bytes",
    (name) => {
      const ix = idl.instructions.find((i) => i.name === name)!;
      const row = lifecycleRow(name);
      expect(row).not.toBeNull();
      // The table's count is what NotEnoughAccounts guards; a payout wallet account comes after
      // it, checked on its own (WalletAccountMissing).
      expect(row!.accounts).toBe(ix.accounts.filter((a) => a.name !== 'wallet').length);
      const bytes = 8 + ix.args.reduce((sum, a) => sum + argBytes[a.type as string]!, 0);
      expect(
        row!.dataBytes === 'IX_DISCRIMINATOR_BYTES'
          ? cDefine('IX_DISCRIMINATOR_BYTES')
          : cDefine('IX_DISCRIMINATOR_BYTES') + 32,
      ).toBe(bytes);
      // Account 1 is the owner, who signs (accept_transfer: the pending owner, checked on its own).
      expect(ix.accounts[0]).toMatchObject({ name: 'tag_record', writable: true });
      expect(ix.accounts[1]).toMatchObject({ signer: true });
      expect(row!.ownerSigns).toBe(ix.accounts[1]!.name === 'owner');
    },
  );

  it('register_tag: the record at ["tag", tag], owner and fee payer signing, the System Program fourth, the wallet signing last', () => {
    const ix = idl.instructions.find((i) => i.name === 'register_tag')!;
    expect(ix.args).toEqual([
      { name: 'tag', type: 'string' },
      { name: 'wallet', type: 'pubkey' },
    ]);
    expect(ix.accounts.map((a) => a.name)).toEqual(['tag_record', 'owner', 'fee_payer', 'system_program', 'wallet']);
    const accounts = ix.accounts as ReadonlyArray<{
      pda?: { seeds: unknown[] };
      address?: string;
      signer?: boolean;
      writable?: boolean;
    }>;
    expect(accounts[0]!.pda?.seeds).toEqual([
      { kind: 'const', value: [...Buffer.from('tag')] },
      { kind: 'arg', path: 'tag' },
    ]);
    expect(C_SOURCE).toMatch(/"tag"/);
    expect(accounts[2]).toMatchObject({ signer: true, writable: true });
    expect(accounts[3]!.address).toBe('11111111111111111111111111111111');
    expect(accounts[4]).toMatchObject({ signer: true });
    // The C source's error for a wrong fourth account names it.
    expect(idl.errors.find((e) => e.name === 'InvalidSystemProgram')?.msg).toBe('Account 3 must be the System Program');
  });

  it("the IDL address is the committed localnet keypair's", () => {
    const keypair = JSON.parse(
      readFileSync(path.join(SRC_DIR, '..', 'localnet-program-keypair.json'), 'utf8'),
    ) as number[];
    expect(idl.address).toBe(getAddressDecoder().decode(Uint8Array.from(keypair.slice(32))));
  });
});

describe('errors', () => {
  it("the C enum numbers the IDL's errors from 6000, in its order and by its names", () => {
    const start = C_SOURCE.indexOf('ERR_TAG_TOO_SHORT = 6000,');
    expect(start).toBeGreaterThan(-1);
    const enumBody = C_SOURCE.slice(start, C_SOURCE.indexOf('ERR_END', start));
    const names = [...enumBody.matchAll(/ERR_(\w+)/g)].map((m) => m[1]);
    expect(names).toEqual(idl.errors.map((e) => upperSnake(e.name)));
    idl.errors.forEach((e, i) => expect(e.code).toBe(6000 + i));
  });

  it("the C source logs the IDL's names and messages", () => {
    const start = C_SOURCE.indexOf('ERROR_TEXTS[');
    const table = C_SOURCE.slice(start, C_SOURCE.indexOf('};', start));
    const rows = [...table.matchAll(/ERROR_TEXT\("(\w+)", "((?:[^"\\]|\\.)*)"\)/g)].map((m) => ({
      name: m[1],
      msg: m[2]!.replace(/\\"/g, '"'),
    }));
    expect(rows).toEqual(idl.errors.map(({ name, msg }) => ({ name, msg })));
  });

  it("the C source's name and message widths hold every row", () => {
    expect(Math.max(...idl.errors.map((e) => e.name.length))).toBeLessThanOrEqual(cDefine('ERROR_NAME_MAX'));
    expect(Math.max(...idl.errors.map((e) => e.msg.length))).toBeLessThanOrEqual(cDefine('ERROR_MESSAGE_MAX'));
  });
});

describe('TagRecord', () => {
  const WIDTH: Record<string, number> = { pubkey: 32, u8: 1, u32: 4, i64: 8 };
  const fields = idl.types.find((t) => t.name === 'TagRecord')!.type.fields;
  const width = (type: unknown) =>
    typeof type === 'string' ? WIDTH[type]! : (type as { array: [string, number] }).array[1];
  /** Each field's offset, after the 8-byte discriminator, in the IDL's order. */
  const offsets = Object.fromEntries(
    fields.map((f, i) => [f.name, 8 + fields.slice(0, i).reduce((sum, g) => sum + width(g.type), 0)]),
  );
  const size = 8 + fields.reduce((sum, f) => sum + width(f.type), 0);

  it('the IDL lays out the fields abi.h names', () => {
    expect(fields.map((f) => f.name)).toEqual([
      'owner',
      'wallet',
      'pending_owner',
      'bump',
      'registered_at',
      'tag_len',
      'tag',
    ]);
    expect(fields.at(-1)?.type).toEqual({ array: ['u8', cDefine('TAG_MAX_BYTES')] });
  });

  it.each([
    ['REC_OWNER', 'owner'],
    ['REC_WALLET', 'wallet'],
    ['REC_PENDING_OWNER', 'pending_owner'],
    ['REC_BUMP', 'bump'],
    ['REC_REGISTERED_AT', 'registered_at'],
    ['REC_TAG_LEN', 'tag_len'],
    ['REC_TAG', 'tag'],
  ])('%s is the IDL offset of %s', (define, field) => {
    expect(cDefine(define)).toBe(offsets[field]);
  });

  it('is 149 bytes in both: the tag padded to one seed', () => {
    expect(size).toBe(149);
    expect(C_SOURCE).toContain('#define TAG_RECORD_SIZE (REC_TAG + TAG_MAX_BYTES) /* 149 */');
    expect(cDefine('REC_TAG') + cDefine('TAG_MAX_BYTES')).toBe(size);
  });
});
