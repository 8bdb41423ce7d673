// npx tsx bench/localnet.ts — register_tag transactions sent and confirmed per second through kit's RPC
import { pathToFileURL } from 'node:url';
import {
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
} from '@solana/kit';
import { getRegisterTagInstructionAsync, LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { startLocalnetProcess } from '@/devstack/localnet';

/** The localnet's PubSub listens one port above its HTTP one (localnet/index.ts). */
function pubSubUrl(httpUrl: string): string {
  const url = new URL(httpUrl);
  url.protocol = 'ws:';
  url.port = String(Number(url.port) + 1);
  return url.toString();
}

export interface LocalnetThroughput {
  transactions: number;
  concurrency: number;
  seconds: number;
  perSecond: number;
  /** Per transaction: getLatestBlockhash → sendTransaction → confirmed through signatureSubscribe. */
  latencyMs: { p50: number; p95: number; max: number };
}

/** Registers `count` tags, `concurrency` in flight at once, each owner signing and one sponsor paying. */
export async function measureLocalnetThroughput({ count = 300, concurrency = 8 } = {}): Promise<LocalnetThroughput> {
  const localnet = await startLocalnetProcess();
  const rpc = createSolanaRpc(localnet.url);
  const rpcSubscriptions = createSolanaRpcSubscriptions(pubSubUrl(localnet.url));
  const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
  const programAddress = LOCALNET_PROGRAM_ID as Address;
  // kit signs with WebCrypto's ed25519 (native in Node), so the client's signing stays cheap.
  const sponsor = await generateKeyPairSigner();
  try {
    const airdrop = await rpc.requestAirdrop(sponsor.address, lamports(100_000_000_000n)).send();
    for (;;) {
      const { value } = await rpc.getSignatureStatuses([airdrop]).send();
      if (value[0]?.confirmationStatus === 'confirmed' || value[0]?.confirmationStatus === 'finalized') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const prefix = `bench_${Date.now().toString(36)}`;
    const latencies: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const started = performance.now();
        const owner = await generateKeyPairSigner();
        const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
        const register = await getRegisterTagInstructionAsync(
          { owner, wallet: owner, feePayer: sponsor, tag: `${prefix}_${i}`, walletArg: owner.address },
          { programAddress },
        );
        const message = pipe(
          createTransactionMessage({ version: 'legacy' }),
          (m) => setTransactionMessageFeePayerSigner(sponsor, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
          (m) => appendTransactionMessageInstructions([register], m),
        );
        const tx = await signTransactionMessageWithSigners(message);
        assertIsTransactionWithBlockhashLifetime(tx);
        // A failed registration throws here (preflight, or the confirmed status's error).
        await sendAndConfirm(tx, { commitment: 'confirmed' }).catch((e: unknown) => {
          throw new Error(`registration ${i} (${getSignatureFromTransaction(tx)}) failed`, { cause: e });
        });
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
    `\n## Localnet: ${r.transactions} register_tag transactions through kit's RPC, ${r.concurrency} in flight`,
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
