// The IDL read by Anchor's own coder (@coral-xyz/anchor), as a client that knows only the
// IDL would: the account size it computes is the record's, so a getProgramAccounts
// dataSize filter built from it finds every record, and it decodes a landed record. Anchor
// names each error of the payout and rest rules from a real failure, by its log line and by
// the IDL's error table.
import {
  AnchorError,
  BN,
  BorshAccountsCoder,
  parseIdlErrors,
  ProgramError,
  translateError,
  type Idl,
} from '@coral-xyz/anchor';
import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import idlJson from '@/program/idl/tag_registry.json';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { decodeTagRecord, encodeTagRecord, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { REGISTRY_ERRORS } from './idl';
import { customErrorCode, logs } from '@/program/litesvm-harness';
import { airdrop, PROGRAM_ID, registerTransaction, startTestNet, type TestNet } from '@/tests/chain/helpers';
import { PAYOUT_AND_REST_REFUSALS } from './refusal-scenarios';

const idl = idlJson as unknown as Idl;
const coder = new BorshAccountsCoder(idl);

interface AnchorTagRecord {
  owner: PublicKey;
  wallet: PublicKey;
  pending_owner: PublicKey;
  bump: number;
  registered_at: { toString(): string };
  tag_len: number;
  tag: number[];
}

const tagOf = (record: AnchorTagRecord) => Buffer.from(record.tag.slice(0, record.tag_len)).toString('utf8');

describe('TagRecord through Anchor', () => {
  it("Anchor's account size is the record's: 149 bytes", () => {
    expect(coder.size('TagRecord')).toBe(TAG_RECORD_SIZE);
    expect(TAG_RECORD_SIZE).toBe(149);
  });

  it.each(['abc', 'bob_smith', 'abcdefghijklmnopqrstuvwxyz012345'])(
    'encodes %j byte for byte as packages/tag-registry does, and decodes it back',
    async (tag) => {
      const owner = Keypair.generate().publicKey;
      const wallet = Keypair.generate().publicKey;
      const ours = encodeTagRecord({ owner, wallet, pendingOwner: null, bump: 253, registeredAt: 1_700_000_000n, tag });
      const padded = [...Buffer.from(tag)].concat(Array(32 - tag.length).fill(0));
      const theirs = await coder.encode('TagRecord', {
        owner,
        wallet,
        pending_owner: PublicKey.default,
        bump: 253,
        registered_at: new BN(1_700_000_000),
        tag_len: tag.length,
        tag: padded,
      });
      expect(Buffer.from(theirs).equals(Buffer.from(ours))).toBe(true);
      expect(tagOf(coder.decode<AnchorTagRecord>('TagRecord', Buffer.from(ours)))).toBe(tag);
    },
  );

  describe('on a localnet', () => {
    let net: TestNet;
    beforeAll(async () => {
      net = await startTestNet();
    });
    afterAll(() => net?.close());

    it("finds a landed record with the dataSize and discriminator filters Anchor's coder gives, and decodes it", async () => {
      const owner = Keypair.generate();
      await airdrop(net.connection, owner.publicKey);
      const tag = `idl_${Date.now().toString(36)}`;
      const { tx, blockhash, lastValidBlockHeight } = await registerTransaction(net.connection, {
        tag,
        owner,
        sponsor: owner,
      });
      const signature = await net.connection.sendRawTransaction(tx.serialize());
      await net.connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed');

      const found = await net.connection.getProgramAccounts(PROGRAM_ID, {
        filters: [{ dataSize: coder.size('TagRecord') }, { memcmp: coder.memcmp('TagRecord') }],
      });
      const [address] = findTagRecordAddress(tag, PROGRAM_ID);
      const mine = found.find((a) => a.pubkey.equals(address));
      expect(mine).toBeDefined();
      const decoded = coder.decode<AnchorTagRecord>('TagRecord', mine!.account.data);
      expect(tagOf(decoded)).toBe(tag);
      expect(decoded.owner.equals(owner.publicKey)).toBe(true);
      expect(decoded.bump).toBe(findTagRecordAddress(tag, PROGRAM_ID)[1]);
      expect(decodeTagRecord(mine!.account.data)?.tag).toBe(tag);
    });
  });
});

describe('errors through Anchor', () => {
  const idlErrors = parseIdlErrors(idl);

  it.each(PAYOUT_AND_REST_REFUSALS)(
    '%s: AnchorError.parse reads its log line; without logs, the IDL table names its code',
    (name, fail) => {
      const { code, msg } = REGISTRY_ERRORS.find((e) => e.name === name)!;
      const failed = fail();
      expect(customErrorCode(failed)).toBe(code);
      expect(idlErrors.get(code)).toBe(msg);

      const fromLogs = translateError({ logs: logs(failed) }, idlErrors);
      expect(fromLogs).toBeInstanceOf(AnchorError);
      expect((fromLogs as AnchorError).error.errorCode).toEqual({ code: name, number: code });
      expect((fromLogs as AnchorError).program.equals(PROGRAM_ID)).toBe(true);

      const preflight = new Error(
        `failed to send transaction: Transaction simulation failed: Error processing Instruction 0: custom program error: 0x${code.toString(16)}`,
      );
      const fromCode = translateError(preflight, idlErrors);
      expect(fromCode).toBeInstanceOf(ProgramError);
      expect(fromCode).toMatchObject({ code, msg });
    },
  );
});
