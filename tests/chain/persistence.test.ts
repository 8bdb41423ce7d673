import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { decodeTagRecord, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { PROGRAM_ID, airdrop, registerTransaction, startTestNet, waitFor } from './helpers';

describe('localnet: state survives a restart with the same dataDir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'localnet-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('brings back balances, the tag record, blockhashes and the history', async () => {
    const owner = Keypair.generate();
    const tag = `persist_${Date.now().toString(36)}`;
    const first = await startTestNet({ dataDir });
    await airdrop(first.connection, owner.publicKey, 3);
    const registration = await registerTransaction(first.connection, { tag, owner, sponsor: owner });
    const registerSignature = await first.connection.sendRawTransaction(registration.tx.serialize());
    await first.connection.confirmTransaction({
      signature: registerSignature,
      blockhash: registration.blockhash,
      lastValidBlockHeight: registration.lastValidBlockHeight,
    });
    const balance = await first.connection.getBalance(owner.publicKey);
    const slot = await first.connection.getSlot();
    const genesis = await first.connection.getGenesisHash();
    const { blockhash } = await first.connection.getLatestBlockhash();
    const history = await first.connection.getSignaturesForAddress(owner.publicKey);
    await first.close();

    const second = await startTestNet({ dataDir });
    try {
      const { connection } = second;
      expect(await connection.getGenesisHash()).toBe(genesis);
      expect(await connection.getSlot()).toBe(slot);
      expect(await connection.getBalance(owner.publicKey)).toBe(balance);
      expect(await connection.getSignaturesForAddress(owner.publicKey)).toEqual(history);
      expect((await connection.isBlockhashValid(blockhash)).value).toBe(true);
      const read = await connection.getTransaction(registerSignature, { maxSupportedTransactionVersion: 0 });
      expect(read?.meta?.err).toBeNull();
      const [record] = findTagRecordAddress(tag, PROGRAM_ID);
      const decoded = decodeTagRecord((await connection.getAccountInfo(record))!.data);
      expect(decoded?.owner.toBase58()).toBe(owner.publicKey.toBase58());
      expect(decoded?.registeredAt).toBe(BigInt(read!.blockTime!));
      // And the chain goes on from where it was.
      const { blockhash: next, lastValidBlockHeight } = await connection.getLatestBlockhash();
      const tx = new Transaction({ feePayer: owner.publicKey, blockhash: next, lastValidBlockHeight }).add(
        SystemProgram.transfer({
          fromPubkey: owner.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: LAMPORTS_PER_SOL / 10,
        }),
      );
      tx.sign(owner);
      const signature = await connection.sendRawTransaction(tx.serialize());
      await connection.confirmTransaction({ signature, blockhash: next, lastValidBlockHeight });
      expect((await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))?.slot).toBe(slot + 1);
    } finally {
      await second.close();
    }
  });
});

describe('localnet: finality delay', () => {
  it('keeps a transaction confirmed, not finalized, until the delay passes', async () => {
    const delay = 1500;
    const net = await startTestNet({ finalityDelayMs: delay });
    try {
      const { connection } = net;
      const payer = Keypair.generate();
      const airdropSignature = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
      const latest = await connection.getLatestBlockhash('confirmed');
      await connection.confirmTransaction({ signature: airdropSignature, ...latest }, 'confirmed');
      const landedAt = Date.now();

      const status = await connection.getSignatureStatus(airdropSignature);
      expect(status.value?.confirmationStatus).toBe('confirmed');
      expect(
        await connection.getTransaction(airdropSignature, {
          commitment: 'finalized',
          maxSupportedTransactionVersion: 0,
        }),
      ).toBeNull();
      expect(
        await connection.getTransaction(airdropSignature, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        }),
      ).not.toBeNull();
      expect(await connection.getSignaturesForAddress(payer.publicKey, {}, 'finalized')).toEqual([]);
      expect(
        (await connection.getSignaturesForAddress(payer.publicKey, {}, 'confirmed')).map((s) => s.confirmationStatus),
      ).toEqual(['confirmed']);
      expect(await connection.getSlot('finalized')).toBeLessThan(await connection.getSlot('confirmed'));

      // confirmTransaction at `finalized` waits for the PubSub notification after the delay.
      await connection.confirmTransaction({ signature: airdropSignature, ...latest }, 'finalized');
      expect(Date.now() - landedAt).toBeGreaterThanOrEqual(delay - 100);
      const finalized = await waitFor(() =>
        connection.getTransaction(airdropSignature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }),
      );
      expect(finalized.meta?.err).toBeNull();
      expect((await connection.getSignatureStatus(airdropSignature)).value?.confirmationStatus).toBe('finalized');
      expect(
        (await connection.getSignaturesForAddress(payer.publicKey, {}, 'finalized')).map((s) => s.signature),
      ).toEqual([airdropSignature]);
    } finally {
      await net.close();
    }
  });
});
