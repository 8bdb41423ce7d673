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
  translateAddress,
  translateError,
  type Idl,
} from '@coral-xyz/anchor';
import { createSolanaRpc, getBase64Encoder, type Base58EncodedBytes } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import idlJson from '@/program/idl/tag_registry.json';
import { parseTagRecord, TAG_RECORD_SIZE, tagRecordBytes } from '@/packages/tag-registry/src';
import { startLocalnet, type Localnet } from '@/localnet';
import { Cluster } from '@/program/deploy/cluster';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { REGISTRY_ERRORS } from './idl';
import { customErrorCode, generateSigner, logs, PROGRAM_ID } from '@/program/litesvm-harness';
import { findTagRecordAddress } from '@/program/pda';
import { sendToCluster } from './cluster-calls';
import { PAYOUT_AND_REST_REFUSALS } from './refusal-scenarios';

const idl = idlJson as unknown as Idl;
const coder = new BorshAccountsCoder(idl);

/** Anchor's coder reads and writes keys as its own PublicKey objects: a base58 string in, this out. */
interface AnchorKey {
  toBase58(): string;
}

interface AnchorTagRecord {
  owner: AnchorKey;
  wallet: AnchorKey;
  pending_owner: AnchorKey;
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
      const owner = generateSigner().address;
      const wallet = generateSigner().address;
      const ours = tagRecordBytes({ owner, wallet, pendingOwner: null, bump: 253, registeredAt: 1_700_000_000n, tag });
      const padded = [...Buffer.from(tag)].concat(Array(32 - tag.length).fill(0));
      const theirs = await coder.encode('TagRecord', {
        owner: translateAddress(owner),
        wallet: translateAddress(wallet),
        pending_owner: translateAddress('11111111111111111111111111111111'),
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
    let net: Localnet;
    beforeAll(async () => {
      net = await startLocalnet({ port: 0, dataDir: null });
    });
    afterAll(() => net?.close());

    it("finds a landed record with the dataSize and discriminator filters Anchor's coder gives, and decodes it", async () => {
      const owner = generateSigner();
      const cluster = new Cluster(net.url, 50);
      await cluster.airdrop(owner.address, 10_000_000_000);
      const tag = `idl_${Date.now().toString(36)}`;
      const register = registerTagInstruction({
        programAddress: PROGRAM_ID,
        tag,
        owner: owner.address,
        wallet: owner.address,
        feePayer: owner.address,
      });
      await sendToCluster(cluster, owner, [register]);

      const { offset, bytes } = coder.memcmp('TagRecord');
      const found = await createSolanaRpc(net.url)
        .getProgramAccounts(PROGRAM_ID, {
          commitment: 'confirmed',
          encoding: 'base64',
          filters: [
            { dataSize: BigInt(coder.size('TagRecord')) },
            { memcmp: { offset: BigInt(offset ?? 0), bytes: bytes as Base58EncodedBytes, encoding: 'base58' } },
          ],
        })
        .send();
      const [address] = findTagRecordAddress(tag, PROGRAM_ID);
      const mine = found.find((a) => a.pubkey === address);
      expect(mine).toBeDefined();
      const data = new Uint8Array(getBase64Encoder().encode(mine!.account.data[0]));
      const decoded = coder.decode<AnchorTagRecord>('TagRecord', Buffer.from(data));
      expect(tagOf(decoded)).toBe(tag);
      expect(decoded.owner.toBase58()).toBe(owner.address);
      expect(decoded.bump).toBe(findTagRecordAddress(tag, PROGRAM_ID)[1]);
      expect(parseTagRecord(data)?.tag).toBe(tag);
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
      expect((fromLogs as AnchorError).program.toBase58()).toBe(PROGRAM_ID);

      const preflight = new Error(
        `failed to send transaction: Transaction simulation failed: Error processing Instruction 0: custom program error: 0x${code.toString(16)}`,
      );
      const fromCode = translateError(preflight, idlErrors);
      expect(fromCode).toBeInstanceOf(ProgramError);
      expect(fromCode).toMatchObject({ code, msg });
    },
  );
});
