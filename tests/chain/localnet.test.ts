import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Decoder,
  getTransactionEncoder,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  type Address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type KeyPairSigner,
  type Signature,
  type SolanaError,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import bs58 from 'bs58';
import { parseTagRecord } from '@/packages/tag-registry/src';
import { registryErrorCode } from '@/program/tests/idl';
import { findTagRecordAddress } from '@/program/pda';
import { decodeBase58 } from '@/lib/core/keys';
import {
  PROGRAM_ID,
  LAMPORTS_PER_SOL,
  airdrop,
  rawRpc,
  reached,
  registerTransaction,
  sendWire,
  signed,
  startTestNet,
  transfer,
  waitFor,
  type TestNet,
  type WireTransaction,
} from './helpers';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
const base64Of = (bytes: Uint8Array) => getBase64Decoder().decode(bytes) as Base64EncodedWireTransaction;

/** A sendTransaction refused, as the JSON-RPC error on the wire says it (what every client reads). */
async function refusal(
  url: string,
  wire: Uint8Array,
  { skipPreflight = false } = {},
): Promise<{ code: number; message: string; logs: string[] | undefined }> {
  const params = [base64Of(wire), { encoding: 'base64', skipPreflight, preflightCommitment: 'confirmed' }];
  const { body } = await rawRpc(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params }));
  const error = (body as { error?: { code: number; message: string; data?: { logs?: string[] } } }).error;
  if (!error) throw new Error('expected the transaction to be refused');
  return { code: error.code, message: error.message, logs: error.data?.logs };
}

/** An unsigned legacy transfer on `blockhash`: its signature slot is zeros. */
function unsignedTransfer(payer: KeyPairSigner, to: Address, amount: bigint, blockhash: string) {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions([transfer(payer, to, amount)], m),
  );
  return compileTransaction(message);
}

const CONFIRMED = { commitment: 'confirmed' } as const;
const READ = { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 } as const;

describe("localnet: System Program transfers through kit's RPC", () => {
  let net: TestNet;
  let payer: KeyPairSigner;
  let recipient: KeyPairSigner;
  beforeAll(async () => {
    net = await startTestNet();
    [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
  });
  afterAll(async () => {
    await net.close();
  });

  it('airdrops, and the airdrop is a confirmed transaction with history', async () => {
    const { rpc } = net;
    const signature = await airdrop(rpc, payer.address, 5);
    expect((await rpc.getBalance(payer.address, CONFIRMED).send()).value).toBe(5n * LAMPORTS_PER_SOL);
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized', confirmations: null });
    const tx = await rpc.getTransaction(signature, READ).send();
    expect(tx?.meta?.err).toBeNull();
    expect(tx?.meta?.postBalances[1]).toBe(5n * LAMPORTS_PER_SOL);
  });

  it('sends, confirms and reads back a transfer exactly as a cluster reports it', async () => {
    const { rpc } = net;
    const slotBefore = await rpc.getSlot(CONFIRMED).send();
    const sent = await signed(rpc, payer, [transfer(payer, recipient.address, LAMPORTS_PER_SOL)]);
    expect(sent.lastValidBlockHeight).toBe((await rpc.getBlockHeight(CONFIRMED).send()) + 150n);
    const signature = await sendWire(rpc, sent);
    expect(signature).toBe(sent.signature);
    expect((await reached(rpc, signature)).err).toBeNull();

    const read = await rpc.getTransaction(signature, READ).send();
    expect(read).not.toBeNull();
    expect(read!.slot).toBe(slotBefore + 1n);
    expect(read!.version).toBe('legacy');
    expect(read!.blockTime).toBe(await rpc.getBlockTime(read!.slot).send());
    expect(Math.abs(Number(read!.blockTime!) - Date.now() / 1000)).toBeLessThan(5);
    const message = read!.transaction.message;
    expect(message.accountKeys).toEqual([payer.address, recipient.address, SYSTEM_PROGRAM]);
    expect(message.header).toEqual({
      numRequiredSignatures: 1,
      numReadonlySignedAccounts: 0,
      numReadonlyUnsignedAccounts: 1,
    });
    expect(message.recentBlockhash).toBe(sent.blockhash);
    expect(message.instructions).toHaveLength(1);
    expect(read!.transaction.signatures).toEqual([signature]);
    expect(read!.meta).toMatchObject({
      err: null,
      fee: 5000n,
      preBalances: [5n * LAMPORTS_PER_SOL, 0n, 1n],
      postBalances: [4n * LAMPORTS_PER_SOL - 5000n, LAMPORTS_PER_SOL, 1n],
      innerInstructions: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: 150n,
    });
    expect(read!.meta!.logMessages).toEqual([
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
    ]);

    // Without maxSupportedTransactionVersion a legacy transaction is still served, unversioned.
    const legacy = await rpc.getTransaction(signature, { commitment: 'confirmed', encoding: 'json' }).send();
    expect(legacy?.slot).toBe(read!.slot);

    const parsed = await rpc.getTransaction(signature, { ...READ, encoding: 'jsonParsed' }).send();
    expect(parsed?.transaction.message.accountKeys[0]).toMatchObject({ signer: true, writable: true });

    const sigs = await rpc.getSignaturesForAddress(recipient.address, CONFIRMED).send();
    expect(sigs).toEqual([
      {
        signature,
        slot: read!.slot,
        err: null,
        memo: null,
        blockTime: read!.blockTime,
        confirmationStatus: 'finalized',
      },
    ]);
  });

  it('accepts v0 messages and needs maxSupportedTransactionVersion to read them', async () => {
    const { rpc } = net;
    const sent = await signed(rpc, payer, [transfer(payer, recipient.address, 1000n)], { version: 0 });
    const signature = await sendWire(rpc, sent);
    await reached(rpc, signature);
    const read = await rpc.getTransaction(signature, READ).send();
    expect(read?.version).toBe(0);
    expect(read?.transaction.message).toMatchObject({ addressTableLookups: [] });
    const unversioned = await rpc
      .getTransaction(signature, { commitment: 'confirmed', encoding: 'json' })
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(unversioned, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION)).toBe(true);
    expect(
      (unversioned as SolanaError<typeof SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION>).context
        .__serverMessage,
    ).toMatch(/Transaction version \(0\) is not supported/);
  });

  it('answers the other methods the app and wallets use in cluster shapes', async () => {
    const { rpc } = net;
    expect(await rpc.getVersion().send()).toMatchObject({ 'solana-core': expect.any(String) });
    expect(decodeBase58(await rpc.getGenesisHash().send(), 32)).not.toBeNull();
    const slot = await rpc.getSlot(CONFIRMED).send();
    expect(await rpc.getEpochInfo(CONFIRMED).send()).toMatchObject({
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: 0n,
      slotIndex: slot,
    });
    // Every transaction so far paid no priority fee (tests/chain/prioritization-fees.test.ts covers the rest).
    expect(
      (await rpc.getRecentPrioritizationFees().send()).every((f) => f.prioritizationFee === 0n && f.slot <= slot),
    ).toBe(true);
    expect(await rpc.getMinimumBalanceForRentExemption(0n, CONFIRMED).send()).toBe(890880n);
    const { value: latest } = await rpc.getLatestBlockhash(CONFIRMED).send();
    expect((await rpc.isBlockhashValid(latest.blockhash, CONFIRMED).send()).value).toBe(true);
    const unknown = bs58.encode(Buffer.alloc(32, 1)) as Blockhash;
    expect((await rpc.isBlockhashValid(unknown, CONFIRMED).send()).value).toBe(false);
    const { messageBytes } = unsignedTransfer(payer, recipient.address, 1n, latest.blockhash);
    const message = getBase64Decoder().decode(messageBytes) as TransactionMessageBytesBase64;
    expect((await rpc.getFeeForMessage(message, CONFIRMED).send()).value).toBe(5000n);
    const nobody = (await generateKeyPairSigner()).address;
    const {
      value: [a, b],
    } = await rpc.getMultipleAccounts([payer.address, nobody], { ...CONFIRMED, encoding: 'base64' }).send();
    expect(a).toMatchObject({ owner: SYSTEM_PROGRAM, executable: false });
    expect(b).toBeNull();
    const { value: info } = await rpc.getAccountInfo(SYSTEM_PROGRAM, { ...CONFIRMED, encoding: 'base64' }).send();
    expect(info?.executable).toBe(true);
  });

  it('simulates with sigVerify and replaceRecentBlockhash', async () => {
    const { rpc } = net;
    const stale = bs58.encode(Buffer.alloc(32, 9));
    const unsigned = getBase64EncodedWireTransaction(unsignedTransfer(payer, recipient.address, 10n, stale));
    const onStale = await rpc
      .simulateTransaction(unsigned, { ...CONFIRMED, encoding: 'base64', sigVerify: false })
      .send();
    expect(onStale.value.err).toBe('BlockhashNotFound');
    const replaced = await rpc
      .simulateTransaction(unsigned, {
        ...CONFIRMED,
        encoding: 'base64',
        replaceRecentBlockhash: true,
        accounts: { addresses: [recipient.address], encoding: 'base64' },
      })
      .send();
    expect(replaced.value.err).toBeNull();
    expect(replaced.value.logs).toContain('Program 11111111111111111111111111111111 success');
    const balance = (await rpc.getBalance(recipient.address, CONFIRMED).send()).value;
    expect(replaced.value.accounts?.[0]?.lamports).toBe(balance + 10n);
    await expect(
      rpc.simulateTransaction(unsigned, { ...CONFIRMED, encoding: 'base64', sigVerify: true }).send(),
    ).rejects.toThrow(/signature verification failure/);
  });
});

describe("localnet: register_tag through kit's RPC", () => {
  let net: TestNet;
  let owner: KeyPairSigner;
  let sponsor: KeyPairSigner;
  let wallet: KeyPairSigner;
  const tag = `alice_${Date.now().toString(36)}`;
  let registerSignature = '';
  beforeAll(async () => {
    net = await startTestNet();
    [owner, sponsor, wallet] = await Promise.all([
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner(),
    ]);
    await airdrop(net.rpc, sponsor.address, 10);
  });
  afterAll(async () => {
    await net.close();
  });

  it('registers a tag signed by owner and sponsor, and serves it back', async () => {
    const { rpc } = net;
    const sent = await registerTransaction(rpc, { tag, owner, sponsor, wallet });
    const signature = await sendWire(rpc, sent);
    registerSignature = signature;
    expect((await reached(rpc, signature)).err).toBeNull();

    const byProgram = await rpc.getSignaturesForAddress(PROGRAM_ID, { ...CONFIRMED, limit: 10 }).send();
    expect(byProgram.map((s) => s.signature)).toEqual([signature]);
    const byOwner = await rpc.getSignaturesForAddress(owner.address, CONFIRMED).send();
    expect(byOwner).toHaveLength(1);
    expect(byOwner[0]).toMatchObject({ signature, err: null, memo: null, confirmationStatus: 'finalized' });

    const read = await rpc.getTransaction(signature, READ).send();
    expect(read?.meta?.err).toBeNull();
    const keys = read!.transaction.message.accountKeys;
    const [record] = findTagRecordAddress(tag, PROGRAM_ID);
    expect(keys[0]).toBe(sponsor.address);
    expect(keys).toContain(owner.address);
    expect(keys).toContain(record);
    expect(read!.transaction.message.header.numRequiredSignatures).toBe(3); // owner, payout wallet, sponsor
    const [ix] = read!.transaction.message.instructions;
    expect(keys[ix!.programIdIndex]).toBe(PROGRAM_ID);
    // The CreateAccount CPI, signed with the PDA seeds, shows as an inner instruction.
    const inner = read!.meta!.innerInstructions!;
    expect(inner).toHaveLength(1);
    expect(inner[0]!.index).toBe(0);
    const cpi = inner[0]!.instructions[0]!;
    expect(keys[cpi.programIdIndex]).toBe(SYSTEM_PROGRAM);
    expect(Buffer.from(bs58.decode(cpi.data)).readUInt32LE(0)).toBe(0); // SystemInstruction::CreateAccount
    expect(cpi.accounts.map((i) => keys[i])).toEqual([sponsor.address, record]);
    expect(read!.meta!.logMessages![0]).toBe(`Program ${PROGRAM_ID} invoke [1]`);
    expect(read!.meta!.logMessages).toContain(`Program ${PROGRAM_ID} success`);
    expect(read!.meta!.computeUnitsConsumed).toBeGreaterThan(0n);

    const { value: account } = await rpc.getAccountInfo(record, { ...CONFIRMED, encoding: 'base64' }).send();
    expect(account?.owner).toBe(PROGRAM_ID);
    const decoded = parseTagRecord(new Uint8Array(Buffer.from(account!.data[0], 'base64')));
    expect(decoded).toMatchObject({ tag, owner: owner.address, wallet: wallet.address });
    expect(decoded!.registeredAt).toBe(read!.blockTime);
  });

  it('records a failed registration sent with skipPreflight, with its error', async () => {
    const { rpc } = net;
    const sent = await registerTransaction(rpc, { tag, owner, sponsor, wallet });
    const balanceBefore = (await rpc.getBalance(sponsor.address, CONFIRMED).send()).value;
    const signature = await sendWire(rpc, sent, { skipPreflight: true });
    const status = await waitFor(async () => (await rpc.getSignatureStatuses([signature]).send()).value[0]);
    // kit reads every integer of an answer as a bigint, the error's too.
    const expectedErr = { InstructionError: [0n, { Custom: BigInt(registryErrorCode('AlreadyRegistered')) }] };
    expect(status.err).toEqual(expectedErr);
    // three signatures (owner, payout wallet, sponsor) at 5,000 lamports each
    expect((await rpc.getBalance(sponsor.address, CONFIRMED).send()).value).toBe(balanceBefore - 15_000n);

    const sigs = await rpc.getSignaturesForAddress(PROGRAM_ID, CONFIRMED).send();
    expect(sigs.map((s) => [s.signature, s.err])).toEqual([
      [signature, expectedErr],
      [registerSignature, null],
    ]);
    const read = await rpc.getTransaction(signature, READ).send();
    expect(read?.meta?.err).toEqual(expectedErr);
    expect(read?.meta?.fee).toBe(15_000n);
  });

  it('refuses the same failing registration at preflight with -32002 and its logs', async () => {
    const { rpc } = net;
    const slot = await rpc.getSlot(CONFIRMED).send();
    const sent = await registerTransaction(rpc, { tag, owner, sponsor, wallet });
    const refused = await refusal(net.localnet.url, sent.wire);
    const code = registryErrorCode('AlreadyRegistered');
    expect(refused.code).toBe(-32002);
    expect(refused.message).toBe(
      `Transaction simulation failed: Error processing Instruction 0: custom program error: 0x${code.toString(16)}`,
    );
    expect(refused.logs?.[0]).toBe(`Program ${PROGRAM_ID} invoke [1]`);
    // kit's client reads that answer as its preflight failure, the logs in its context.
    const viaKit = await sendWire(rpc, sent).catch((e: unknown) => e);
    expect(isSolanaError(viaKit, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    expect(
      (viaKit as SolanaError<typeof SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE>).context
        .logs?.[0],
    ).toBe(`Program ${PROGRAM_ID} invoke [1]`);
    expect(await rpc.getSlot(CONFIRMED).send()).toBe(slot);
    const statuses = await rpc.getSignatureStatuses([sent.signature], { searchTransactionHistory: true }).send();
    expect(statuses.value[0]).toBeNull();
  });
});

describe('localnet: what a cluster refuses', () => {
  let net: TestNet;
  let payer: KeyPairSigner;
  let to: Address;
  beforeAll(async () => {
    net = await startTestNet();
    [payer, { address: to }] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    await airdrop(net.rpc, payer.address, 1);
  });
  afterAll(async () => {
    await net.close();
  });

  // Above the rent-exempt minimum, so the first transfer to `to` may create it.
  function transferTo(blockhash: string, lamports = 1_000_000n): Promise<WireTransaction> {
    return signed(net.rpc, payer, [transfer(payer, to, lamports)], { lifetime: { blockhash } });
  }

  async function nothingRecorded(signature: string, slot: bigint) {
    expect(await net.rpc.getSlot(CONFIRMED).send()).toBe(slot);
    const statuses = await net.rpc
      .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
      .send();
    expect(statuses.value[0]).toBeNull();
  }

  // One byte inside the first signature flipped: the right length, no longer the payer's signature.
  function flipped(raw: Uint8Array, at: number): Uint8Array {
    raw[at]! ^= 0xff;
    return raw;
  }

  const cases: {
    name: string;
    build: (blockhash: string) => Promise<Uint8Array>;
    skipPreflight: boolean;
    message: string;
  }[] = [
    {
      name: 'a bad signature',
      build: async (bh) => flipped((await transferTo(bh)).wire, 10),
      skipPreflight: false,
      message: 'Transaction signature verification failure',
    },
    {
      name: 'a bad signature, even with skipPreflight',
      build: async (bh) => flipped((await transferTo(bh, 1_000_001n)).wire, 20),
      skipPreflight: true,
      message: 'Transaction signature verification failure',
    },
    {
      name: 'a missing signature',
      build: async (bh) => new Uint8Array(getTransactionEncoder().encode(unsignedTransfer(payer, to, 1_000_002n, bh))),
      skipPreflight: false,
      message: 'Transaction signature verification failure',
    },
    {
      name: 'an unknown blockhash',
      build: async () => (await transferTo(bs58.encode(Buffer.alloc(32, 3)))).wire,
      skipPreflight: false,
      message: 'Transaction simulation failed: Blockhash not found',
    },
  ];

  it.each(cases)('refuses $name', async ({ build, skipPreflight, message }) => {
    const { rpc } = net;
    const slot = await rpc.getSlot(CONFIRMED).send();
    const { value } = await rpc.getLatestBlockhash(CONFIRMED).send();
    const raw = await build(value.blockhash);
    const refused = await refusal(net.localnet.url, raw, { skipPreflight });
    expect(refused.message).toBe(message);
    await nothingRecorded(bs58.encode(raw.subarray(1, 65)), slot);
  });

  it('refuses a duplicate of a processed transaction', async () => {
    const { rpc } = net;
    const { value } = await rpc.getLatestBlockhash(CONFIRMED).send();
    const sent = await transferTo(value.blockhash, 1_001_234n);
    const signature = await sendWire(rpc, sent);
    const slot = await rpc.getSlot(CONFIRMED).send();
    const refused = await refusal(net.localnet.url, sent.wire);
    expect(refused.message).toBe('Transaction simulation failed: This transaction has already been processed');
    expect(await rpc.getSlot(CONFIRMED).send()).toBe(slot);
    const history = await rpc.getSignaturesForAddress(to, CONFIRMED).send();
    expect(history.filter((s) => s.signature === signature)).toHaveLength(1);
  });

  it('refuses a blockhash once 150 blocks have passed, and says so through lastValidBlockHeight', async () => {
    const { rpc } = net;
    const sent = await signed(rpc, payer, [transfer(payer, to, 1_004_321n)]);
    const sink = (await generateKeyPairSigner()).address;
    while ((await rpc.getBlockHeight(CONFIRMED).send()) < sent.lastValidBlockHeight) {
      await rpc.requestAirdrop(sink, lamports(1_000_000n)).send();
    }
    expect(await rpc.getBlockHeight(CONFIRMED).send()).toBe(sent.lastValidBlockHeight);
    expect((await rpc.isBlockhashValid(sent.blockhash as Blockhash, CONFIRMED).send()).value).toBe(false);
    const slot = await rpc.getSlot(CONFIRMED).send();
    const refused = await refusal(net.localnet.url, sent.wire);
    expect(refused.message).toBe('Transaction simulation failed: Blockhash not found');
    await nothingRecorded(sent.signature, slot);
  });
});
