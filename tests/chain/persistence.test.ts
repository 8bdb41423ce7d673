import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPairSigner, lamports } from '@solana/kit';
import { parseTagRecord } from '@/packages/tag-registry/src';
import { findTagRecordAddress } from '@/program/pda';
import {
  LAMPORTS_PER_SOL,
  PROGRAM_ID,
  airdrop,
  reached,
  registerTransaction,
  sendWire,
  signed,
  startTestNet,
  transfer,
  waitFor,
} from './helpers';

const CONFIRMED = { commitment: 'confirmed' } as const;
const READ = { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 } as const;

describe('localnet: state survives a restart with the same dataDir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'localnet-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('brings back balances, the tag record, blockhashes and the history', async () => {
    const owner = await generateKeyPairSigner();
    const tag = `persist_${Date.now().toString(36)}`;
    const first = await startTestNet({ dataDir });
    await airdrop(first.rpc, owner.address, 3);
    const registration = await registerTransaction(first.rpc, { tag, owner, sponsor: owner });
    const registerSignature = await sendWire(first.rpc, registration);
    await reached(first.rpc, registerSignature);
    const balance = (await first.rpc.getBalance(owner.address, CONFIRMED).send()).value;
    const slot = await first.rpc.getSlot(CONFIRMED).send();
    const genesis = await first.rpc.getGenesisHash().send();
    const { blockhash } = (await first.rpc.getLatestBlockhash(CONFIRMED).send()).value;
    const history = await first.rpc.getSignaturesForAddress(owner.address, CONFIRMED).send();
    await first.close();

    const second = await startTestNet({ dataDir });
    try {
      const { rpc } = second;
      expect(await rpc.getGenesisHash().send()).toBe(genesis);
      expect(await rpc.getSlot(CONFIRMED).send()).toBe(slot);
      expect((await rpc.getBalance(owner.address, CONFIRMED).send()).value).toBe(balance);
      expect(await rpc.getSignaturesForAddress(owner.address, CONFIRMED).send()).toEqual(history);
      expect((await rpc.isBlockhashValid(blockhash, CONFIRMED).send()).value).toBe(true);
      const read = await rpc.getTransaction(registerSignature, READ).send();
      expect(read?.meta?.err).toBeNull();
      const [record] = findTagRecordAddress(tag, PROGRAM_ID);
      const { value: account } = await rpc.getAccountInfo(record, { ...CONFIRMED, encoding: 'base64' }).send();
      const decoded = parseTagRecord(new Uint8Array(Buffer.from(account!.data[0], 'base64')));
      expect(decoded?.owner).toBe(owner.address);
      expect(decoded?.registeredAt).toBe(read!.blockTime);
      // And the chain goes on from where it was.
      const sink = (await generateKeyPairSigner()).address;
      const next = await signed(rpc, owner, [transfer(owner, sink, LAMPORTS_PER_SOL / 10n)]);
      const signature = await sendWire(rpc, next);
      await reached(rpc, signature);
      expect((await rpc.getTransaction(signature, READ).send())?.slot).toBe(slot + 1n);
    } finally {
      await second.close();
    }
  });
});

describe('localnet: finality delay', () => {
  it('keeps a transaction confirmed, not finalized, until the delay passes', async () => {
    const delay = 1500;
    const net = await startTestNet({ finalityDelayMs: delay });
    const stop = new AbortController();
    try {
      const { rpc, rpcSubscriptions } = net;
      const payer = await generateKeyPairSigner();
      const airdropSignature = await rpc.requestAirdrop(payer.address, lamports(LAMPORTS_PER_SOL)).send();
      await reached(rpc, airdropSignature, 'confirmed');
      const landedAt = Date.now();
      // Subscribed before the delay passes: the PubSub notification at `finalized` is what ends the wait below.
      const finalizedNotice = await rpcSubscriptions
        .signatureNotifications(airdropSignature, { commitment: 'finalized' })
        .subscribe({ abortSignal: stop.signal });

      const [status] = (await rpc.getSignatureStatuses([airdropSignature]).send()).value;
      expect(status?.confirmationStatus).toBe('confirmed');
      expect(await rpc.getTransaction(airdropSignature, { ...READ, commitment: 'finalized' }).send()).toBeNull();
      expect(await rpc.getTransaction(airdropSignature, READ).send()).not.toBeNull();
      expect(await rpc.getSignaturesForAddress(payer.address, { commitment: 'finalized' }).send()).toEqual([]);
      expect(
        (await rpc.getSignaturesForAddress(payer.address, CONFIRMED).send()).map((s) => s.confirmationStatus),
      ).toEqual(['confirmed']);
      expect(await rpc.getSlot({ commitment: 'finalized' }).send()).toBeLessThan(await rpc.getSlot(CONFIRMED).send());

      for await (const notice of finalizedNotice) {
        expect(notice.value.err).toBeNull();
        break;
      }
      expect(Date.now() - landedAt).toBeGreaterThanOrEqual(delay - 100);
      const finalized = await waitFor(() =>
        rpc.getTransaction(airdropSignature, { ...READ, commitment: 'finalized' }).send(),
      );
      expect(finalized.meta?.err).toBeNull();
      expect((await rpc.getSignatureStatuses([airdropSignature]).send()).value[0]?.confirmationStatus).toBe(
        'finalized',
      );
      expect(
        (await rpc.getSignaturesForAddress(payer.address, { commitment: 'finalized' }).send()).map((s) => s.signature),
      ).toEqual([airdropSignature]);
    } finally {
      stop.abort();
      await net.close();
    }
  });
});
