import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { decodeTagRecord, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { registryErrorCode } from '@/program/tests/idl';
import { decodeBase58 } from '@/lib/core/keys';
import { PROGRAM_ID, airdrop, registerTransaction, startTestNet, waitFor, type TestNet } from './helpers';

/** The JSON-RPC error a SendTransactionError carries, whichever web3.js version words it. */
async function sendError(promise: Promise<unknown>): Promise<{ message: string; logs: string[] | undefined }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof SendTransactionError)
      return { message: e.transactionError.message, logs: e.transactionError.logs };
    throw e;
  }
  throw new Error('expected the transaction to be refused');
}

describe('localnet: System Program transfers through web3.js Connection', () => {
  let net: TestNet;
  const payer = Keypair.generate();
  const recipient = Keypair.generate();
  beforeAll(async () => {
    net = await startTestNet();
  });
  afterAll(async () => {
    await net.close();
  });

  it('airdrops, and the airdrop is a confirmed transaction with history', async () => {
    const { connection } = net;
    const signature = await airdrop(connection, payer.publicKey, 5);
    expect(await connection.getBalance(payer.publicKey)).toBe(5 * LAMPORTS_PER_SOL);
    const status = await connection.getSignatureStatus(signature);
    expect(status.value).toMatchObject({ err: null, confirmationStatus: 'finalized', confirmations: null });
    const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx?.meta?.err).toBeNull();
    expect(tx?.meta?.postBalances[1]).toBe(5 * LAMPORTS_PER_SOL);
  });

  it('sends, confirms and reads back a transfer exactly as a cluster reports it', async () => {
    const { connection } = net;
    const slotBefore = await connection.getSlot();
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    expect(lastValidBlockHeight).toBe((await connection.getBlockHeight()) + 150);
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: recipient.publicKey,
        lamports: LAMPORTS_PER_SOL,
      }),
    );
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    expect(signature).toBe(bs58.encode(tx.signature!));
    const confirmation = await connection.confirmTransaction(
      { signature, blockhash, lastValidBlockHeight },
      'confirmed',
    );
    expect(confirmation.value.err).toBeNull();

    const read = await connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    });
    expect(read).not.toBeNull();
    expect(read!.slot).toBe(slotBefore + 1);
    expect(read!.version).toBe('legacy');
    expect(read!.blockTime).toBe(await connection.getBlockTime(read!.slot));
    expect(Math.abs(read!.blockTime! - Date.now() / 1000)).toBeLessThan(5);
    const message = read!.transaction.message;
    expect(message.staticAccountKeys.map((k) => k.toBase58())).toEqual([
      payer.publicKey.toBase58(),
      recipient.publicKey.toBase58(),
      SystemProgram.programId.toBase58(),
    ]);
    expect(message.header).toEqual({
      numRequiredSignatures: 1,
      numReadonlySignedAccounts: 0,
      numReadonlyUnsignedAccounts: 1,
    });
    expect(message.recentBlockhash).toBe(blockhash);
    expect(message.compiledInstructions).toHaveLength(1);
    expect(read!.transaction.signatures).toEqual([signature]);
    expect(read!.meta).toMatchObject({
      err: null,
      fee: 5000,
      preBalances: [5 * LAMPORTS_PER_SOL, 0, 1],
      postBalances: [4 * LAMPORTS_PER_SOL - 5000, LAMPORTS_PER_SOL, 1],
      innerInstructions: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: 150,
    });
    expect(read!.meta!.logMessages).toEqual([
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
    ]);

    // Without maxSupportedTransactionVersion a legacy transaction is still served, unversioned.
    const legacy = await connection.getTransaction(signature, { commitment: 'confirmed' } as never);
    expect(legacy?.slot).toBe(read!.slot);

    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed?.transaction.message.accountKeys[0]).toMatchObject({ signer: true, writable: true });

    const sigs = await connection.getSignaturesForAddress(recipient.publicKey);
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
    const { connection } = net;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 1000 }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const signature = await connection.sendTransaction(tx);
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    const read = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(read?.version).toBe(0);
    expect(read?.transaction.message.addressTableLookups).toEqual([]);
    await expect(connection.getTransaction(signature, {} as never)).rejects.toThrow(
      /Transaction version \(0\) is not supported/,
    );
  });

  it('answers the other methods the app and wallets use in cluster shapes', async () => {
    const { connection } = net;
    expect(await connection.getVersion()).toMatchObject({ 'solana-core': expect.any(String) });
    expect(decodeBase58(await connection.getGenesisHash(), 32)).not.toBeNull();
    const slot = await connection.getSlot();
    expect(await connection.getEpochInfo()).toMatchObject({
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: 0,
      slotIndex: slot,
    });
    // Every transaction so far paid no priority fee (tests/chain/prioritization-fees.test.ts covers the rest).
    expect(
      (await connection.getRecentPrioritizationFees()).every((f) => f.prioritizationFee === 0 && f.slot <= slot),
    ).toBe(true);
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890880);
    const { blockhash } = await connection.getLatestBlockhash();
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true);
    expect((await connection.isBlockhashValid(bs58.encode(Buffer.alloc(32, 1)))).value).toBe(false);
    const message = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash })
      .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 1 }))
      .compileMessage();
    expect((await connection.getFeeForMessage(message)).value).toBe(5000);
    const [a, b] = await connection.getMultipleAccountsInfo([payer.publicKey, Keypair.generate().publicKey]);
    expect(a).toMatchObject({ owner: SystemProgram.programId, executable: false });
    expect(b).toBeNull();
    const info = await connection.getAccountInfo(SystemProgram.programId);
    expect(info?.executable).toBe(true);
  });

  it('simulates with sigVerify and replaceRecentBlockhash', async () => {
    const { connection } = net;
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: bs58.encode(Buffer.alloc(32, 9)) }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 10 }),
    );
    const unsigned = new VersionedTransaction(tx.compileMessage());
    const stale = await connection.simulateTransaction(unsigned, { sigVerify: false });
    expect(stale.value.err).toBe('BlockhashNotFound');
    const replaced = await connection.simulateTransaction(unsigned, {
      replaceRecentBlockhash: true,
      accounts: { addresses: [recipient.publicKey.toBase58()], encoding: 'base64' },
    });
    expect(replaced.value.err).toBeNull();
    expect(replaced.value.logs).toContain('Program 11111111111111111111111111111111 success');
    expect(replaced.value.accounts?.[0]?.lamports).toBe((await connection.getBalance(recipient.publicKey)) + 10);
    await expect(connection.simulateTransaction(unsigned, { sigVerify: true })).rejects.toThrow(
      /signature verification failure/,
    );
  });
});

describe('localnet: register_tag through web3.js Connection', () => {
  let net: TestNet;
  const owner = Keypair.generate();
  const sponsor = Keypair.generate();
  const wallet = Keypair.generate();
  const tag = `alice_${Date.now().toString(36)}`;
  let registerSignature = '';
  beforeAll(async () => {
    net = await startTestNet();
    await airdrop(net.connection, sponsor.publicKey, 10);
  });
  afterAll(async () => {
    await net.close();
  });

  it('registers a tag signed by owner and sponsor, and serves it back', async () => {
    const { connection } = net;
    const { tx, blockhash, lastValidBlockHeight } = await registerTransaction(connection, {
      tag,
      owner,
      sponsor,
      wallet,
    });
    registerSignature = await connection.sendRawTransaction(tx.serialize());
    const confirmation = await connection.confirmTransaction({
      signature: registerSignature,
      blockhash,
      lastValidBlockHeight,
    });
    expect(confirmation.value.err).toBeNull();

    const byProgram = await connection.getSignaturesForAddress(PROGRAM_ID, { limit: 10 });
    expect(byProgram.map((s) => s.signature)).toEqual([registerSignature]);
    const byOwner = await connection.getSignaturesForAddress(owner.publicKey);
    expect(byOwner).toHaveLength(1);
    expect(byOwner[0]).toMatchObject({
      signature: registerSignature,
      err: null,
      memo: null,
      confirmationStatus: 'finalized',
    });

    const read = await connection.getTransaction(registerSignature, { maxSupportedTransactionVersion: 0 });
    expect(read?.meta?.err).toBeNull();
    const keys = read!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    const [record] = findTagRecordAddress(tag, PROGRAM_ID);
    expect(keys[0]).toBe(sponsor.publicKey.toBase58());
    expect(keys).toContain(owner.publicKey.toBase58());
    expect(keys).toContain(record.toBase58());
    expect(read!.transaction.message.header.numRequiredSignatures).toBe(3); // owner, payout wallet, sponsor
    const [ix] = read!.transaction.message.compiledInstructions;
    expect(keys[ix!.programIdIndex]).toBe(PROGRAM_ID.toBase58());
    // The CreateAccount CPI, signed with the PDA seeds, shows as an inner instruction.
    const inner = read!.meta!.innerInstructions!;
    expect(inner).toHaveLength(1);
    expect(inner[0]!.index).toBe(0);
    const cpi = inner[0]!.instructions[0]!;
    expect(keys[cpi.programIdIndex]).toBe(SystemProgram.programId.toBase58());
    expect(Buffer.from(bs58.decode(cpi.data)).readUInt32LE(0)).toBe(0); // SystemInstruction::CreateAccount
    expect(cpi.accounts.map((i) => keys[i])).toEqual([sponsor.publicKey.toBase58(), record.toBase58()]);
    expect(read!.meta!.logMessages![0]).toBe(`Program ${PROGRAM_ID.toBase58()} invoke [1]`);
    expect(read!.meta!.logMessages).toContain(`Program ${PROGRAM_ID.toBase58()} success`);
    expect(read!.meta!.computeUnitsConsumed).toBeGreaterThan(0);

    const account = await connection.getAccountInfo(record);
    expect(account?.owner.toBase58()).toBe(PROGRAM_ID.toBase58());
    const decoded = decodeTagRecord(account!.data);
    expect(decoded).toMatchObject({ tag });
    expect(decoded!.owner.toBase58()).toBe(owner.publicKey.toBase58());
    expect(decoded!.wallet.toBase58()).toBe(wallet.publicKey.toBase58());
    expect(decoded!.registeredAt).toBe(BigInt(read!.blockTime!));
  });

  it('records a failed registration sent with skipPreflight, with its error', async () => {
    const { connection } = net;
    const { tx } = await registerTransaction(connection, { tag, owner, sponsor, wallet });
    const balanceBefore = await connection.getBalance(sponsor.publicKey);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const status = await waitFor(async () => (await connection.getSignatureStatus(signature)).value);
    const expectedErr = { InstructionError: [0, { Custom: registryErrorCode('AlreadyRegistered') }] };
    expect(status.err).toEqual(expectedErr);
    // three signatures (owner, payout wallet, sponsor) at 5,000 lamports each
    expect(await connection.getBalance(sponsor.publicKey)).toBe(balanceBefore - 15_000);

    const sigs = await connection.getSignaturesForAddress(PROGRAM_ID);
    expect(sigs.map((s) => [s.signature, s.err])).toEqual([
      [signature, expectedErr],
      [registerSignature, null],
    ]);
    const read = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(read?.meta?.err).toEqual(expectedErr);
    expect(read?.meta?.fee).toBe(15_000);
  });

  it('refuses the same failing registration at preflight with -32002 and its logs', async () => {
    const { connection } = net;
    const slot = await connection.getSlot();
    const { tx } = await registerTransaction(connection, { tag, owner, sponsor, wallet });
    const refused = await sendError(connection.sendRawTransaction(tx.serialize()));
    const code = registryErrorCode('AlreadyRegistered');
    expect(refused.message).toBe(
      `Transaction simulation failed: Error processing Instruction 0: custom program error: 0x${code.toString(16)}`,
    );
    expect(refused.logs?.[0]).toBe(`Program ${PROGRAM_ID.toBase58()} invoke [1]`);
    expect(await connection.getSlot()).toBe(slot);
    expect(
      (await connection.getSignatureStatus(bs58.encode(tx.signature!), { searchTransactionHistory: true })).value,
    ).toBeNull();
  });
});

describe('localnet: what a cluster refuses', () => {
  let net: TestNet;
  const payer = Keypair.generate();
  const to = Keypair.generate().publicKey;
  beforeAll(async () => {
    net = await startTestNet();
    await airdrop(net.connection, payer.publicKey, 1);
  });
  afterAll(async () => {
    await net.close();
  });

  // Above the rent-exempt minimum, so the first transfer to `to` may create it.
  function transfer(recentBlockhash: string, lamports = 1_000_000): Transaction {
    return new Transaction({ feePayer: payer.publicKey, recentBlockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }),
    );
  }

  async function nothingRecorded(signature: string, slot: number) {
    expect(await net.connection.getSlot()).toBe(slot);
    expect((await net.connection.getSignatureStatus(signature, { searchTransactionHistory: true })).value).toBeNull();
  }

  function signed(tx: Transaction): Uint8Array {
    tx.sign(payer);
    return tx.serialize();
  }

  // One byte inside the first signature flipped: the right length, no longer the payer's signature.
  function flipped(raw: Uint8Array, at: number): Uint8Array {
    raw[at]! ^= 0xff;
    return raw;
  }

  const cases: { name: string; build: (blockhash: string) => Uint8Array; skipPreflight: boolean; message: string }[] = [
    {
      name: 'a bad signature',
      build: (bh) => flipped(signed(transfer(bh)), 10),
      skipPreflight: false,
      message: 'Transaction signature verification failure',
    },
    {
      name: 'a bad signature, even with skipPreflight',
      build: (bh) => flipped(signed(transfer(bh, 1_000_001)), 20),
      skipPreflight: true,
      message: 'Transaction signature verification failure',
    },
    {
      name: 'a missing signature',
      build: (bh) => transfer(bh, 1_000_002).serialize({ requireAllSignatures: false, verifySignatures: false }),
      skipPreflight: false,
      message: 'Transaction signature verification failure',
    },
    {
      name: 'an unknown blockhash',
      build: () => signed(transfer(bs58.encode(Buffer.alloc(32, 3)))),
      skipPreflight: false,
      message: 'Transaction simulation failed: Blockhash not found',
    },
  ];

  it.each(cases)('refuses $name', async ({ build, skipPreflight, message }) => {
    const { connection } = net;
    const slot = await connection.getSlot();
    const { blockhash } = await connection.getLatestBlockhash();
    const raw = build(blockhash);
    const refused = await sendError(connection.sendRawTransaction(raw, { skipPreflight }));
    expect(refused.message).toBe(message);
    await nothingRecorded(bs58.encode(raw.subarray(1, 65)), slot);
  });

  it('refuses a duplicate of a processed transaction', async () => {
    const { connection } = net;
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = transfer(blockhash, 1_001_234);
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const slot = await connection.getSlot();
    const refused = await sendError(connection.sendRawTransaction(tx.serialize()));
    expect(refused.message).toBe('Transaction simulation failed: This transaction has already been processed');
    expect(await connection.getSlot()).toBe(slot);
    expect((await connection.getSignaturesForAddress(to)).filter((s) => s.signature === signature)).toHaveLength(1);
  });

  it('refuses a blockhash once 150 blocks have passed, and says so through lastValidBlockHeight', async () => {
    const { connection } = net;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = transfer(blockhash, 1_004_321);
    tx.sign(payer);
    const sink = Keypair.generate().publicKey;
    while ((await connection.getBlockHeight()) < lastValidBlockHeight) {
      await connection.requestAirdrop(sink, 1_000_000);
    }
    expect(await connection.getBlockHeight()).toBe(lastValidBlockHeight);
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(false);
    const slot = await connection.getSlot();
    const refused = await sendError(connection.sendRawTransaction(tx.serialize()));
    expect(refused.message).toBe('Transaction simulation failed: Blockhash not found');
    await nothingRecorded(bs58.encode(tx.signature!), slot);
  });
});
