// npx tsx bench/localnet.ts — register_tag transactions sent and confirmed per second through Connection
import { pathToFileURL } from 'node:url';
import { sign } from 'node:crypto';
import { Connection, Keypair, LAMPORTS_PER_SOL, Transaction } from '@solana/web3.js';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { PublicKey } from '@solana/web3.js';
import { startLocalnetProcess } from '@/devstack/localnet';
import { nodeKey } from './node-key';

export interface LocalnetThroughput {
  transactions: number;
  concurrency: number;
  seconds: number;
  perSecond: number;
  /** Per transaction: getLatestBlockhash → sendRawTransaction → confirmTransaction. */
  latencyMs: { p50: number; p95: number; max: number };
}

/** Registers `count` tags, `concurrency` in flight at once, each owner signing and one sponsor paying. */
export async function measureLocalnetThroughput({ count = 300, concurrency = 8 } = {}): Promise<LocalnetThroughput> {
  const localnet = await startLocalnetProcess();
  const connection = new Connection(localnet.url, 'confirmed');
  const programId = new PublicKey(LOCALNET_PROGRAM_ID);
  const sponsor = Keypair.generate();
  const sponsorKey = nodeKey(sponsor);
  try {
    const airdrop = await connection.requestAirdrop(sponsor.publicKey, 100 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const prefix = `bench_${Date.now().toString(36)}`;
    const latencies: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const started = performance.now();
        const owner = Keypair.generate();
        const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
        const tx = new Transaction({ feePayer: sponsor.publicKey, blockhash, lastValidBlockHeight }).add(
          registerTagInstruction({
            programId,
            tag: `${prefix}_${i}`,
            owner: owner.publicKey,
            wallet: owner.publicKey,
            feePayer: sponsor.publicKey,
          }),
        );
        const message = tx.serializeMessage();
        tx.addSignature(owner.publicKey, sign(null, message, nodeKey(owner)));
        tx.addSignature(sponsor.publicKey, sign(null, message, sponsorKey));
        const signature = await connection.sendRawTransaction(tx.serialize({ verifySignatures: false }));
        const { value } = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
        if (value.err) throw new Error(`registration ${i} failed: ${JSON.stringify(value.err)}`);
        latencies.push(performance.now() - started);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
    return {
      transactions: count,
      concurrency,
      seconds: Math.round(seconds * 100) / 100,
      perSecond: Math.round(count / seconds),
      latencyMs: { p50: at(0.5), p95: at(0.95), max: at(1) },
    };
  } finally {
    await localnet.close();
  }
}

/** Prints the figures (part of `npm run bench`). */
export async function benchLocalnet(): Promise<LocalnetThroughput> {
  const r = await measureLocalnetThroughput();
  console.log(
    `\n## Localnet: ${r.transactions} register_tag transactions through Connection, ${r.concurrency} in flight`,
  );
  console.log(`  ${r.perSecond} tx/s sent and confirmed (${r.seconds} s)`);
  console.log(`  latency p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, max ${r.latencyMs.max} ms`);
  return r;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchLocalnet().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
