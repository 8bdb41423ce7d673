/**
 * The few RPC calls the deploy and verify commands make, on @solana/kit's RPC client; its
 * errors become ours so that a preflight failure's logs, or a blockhash that expired, reach
 * the user as they are.
 */
import {
  address,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  lamports,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type Rpc,
  type SolanaRpcApi,
  type Transaction,
} from '@solana/kit';
import type { RecentBlockhash } from './loader-v3';

/** Genesis hashes of the public clusters. */
export const GENESIS_HASHES: Record<string, string> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d': 'mainnet-beta',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: 'devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY': 'testnet',
};

export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    message: string,
    readonly code?: number,
    readonly logs: string[] = [],
  ) {
    super(logs.length > 0 ? `${message}\n${logs.join('\n')}` : message);
  }
}

/** A transaction that landed with an error (the runtime refused it). */
export class TransactionFailed extends RpcError {
  override name = 'TransactionFailed';
}

export interface AccountInfo {
  lamports: bigint;
  owner: string;
  executable: boolean;
  data: Uint8Array;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Status polls in a row that may fail before a send is given up on (about a blockhash's life at 400 ms). */
const MAX_POLL_FAILURES = 150;
const CONFIRMED = { commitment: 'confirmed' } as const;

/** `request`'s answer; kit's errors as RpcError (TransactionFailed for a preflight refusal, with its logs). */
async function send<T>(method: string, url: string, request: { send(): Promise<T> }): Promise<T> {
  try {
    return await request.send();
  } catch (e) {
    if (isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
      const why = e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message;
      throw new TransactionFailed(`${method}: ${why}`, -32002, [...(e.context.logs ?? [])]);
    }
    if (isSolanaError(e, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
      throw new RpcError(`${method}: HTTP ${e.context.statusCode} from ${url}`, e.context.statusCode);
    }
    if (isSolanaError(e)) throw new RpcError(`${method}: ${e.message}`, Number(e.context.__code ?? 0) || undefined);
    throw new RpcError(`${method}: cannot reach ${url} (${(e as Error).message})`);
  }
}

export class Cluster {
  private readonly rpc: Rpc<SolanaRpcApi>;
  constructor(
    readonly url: string,
    private readonly pollMs = 400,
  ) {
    this.rpc = createSolanaRpc(url);
  }

  genesisHash(): Promise<string> {
    return send('getGenesisHash', this.url, this.rpc.getGenesisHash());
  }

  async clusterName(): Promise<string> {
    return GENESIS_HASHES[await this.genesisHash()] ?? 'custom';
  }

  async latestBlockhash(): Promise<RecentBlockhash> {
    const { value } = await send('getLatestBlockhash', this.url, this.rpc.getLatestBlockhash(CONFIRMED));
    return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
  }

  blockHeight(): Promise<bigint> {
    return send('getBlockHeight', this.url, this.rpc.getBlockHeight(CONFIRMED));
  }

  async balance(of: string): Promise<bigint> {
    return (await send('getBalance', this.url, this.rpc.getBalance(address(of), CONFIRMED))).value;
  }

  minimumBalance(size: number): Promise<bigint> {
    return send(
      'getMinimumBalanceForRentExemption',
      this.url,
      this.rpc.getMinimumBalanceForRentExemption(BigInt(size)),
    );
  }

  async account(of: string): Promise<AccountInfo | null> {
    const { value } = await send(
      'getAccountInfo',
      this.url,
      this.rpc.getAccountInfo(address(of), { encoding: 'base64', ...CONFIRMED }),
    );
    if (!value) return null;
    return {
      lamports: value.lamports,
      owner: value.owner,
      executable: value.executable,
      data: new Uint8Array(Buffer.from(value.data[0], 'base64')),
    };
  }

  /** Asks a test cluster for `amount` lamports (localnet, devnet). */
  async airdrop(to: string, amount: number): Promise<void> {
    await send('requestAirdrop', this.url, this.rpc.requestAirdrop(address(to), lamports(BigInt(amount))));
  }

  /**
   * Sends and waits until the transaction is confirmed. Throws TransactionFailed when it
   * landed with an error or preflight refused it, RpcError when its blockhash expired first
   * (then it can never land, and the caller may retry with a new one).
   */
  async sendAndConfirm(tx: Transaction, lastValidBlockHeight: bigint): Promise<string> {
    const signature = getSignatureFromTransaction(tx);
    await send(
      'sendTransaction',
      this.url,
      this.rpc.sendTransaction(getBase64EncodedWireTransaction(tx), {
        encoding: 'base64',
        preflightCommitment: 'confirmed',
      }),
    );
    // The transaction may have landed: a failing status or block-height call must not make
    // the caller resend it (a second "create buffer" or "deploy" is refused as already in
    // use). Such an error means "not known yet"; polling goes on until the blockhash expires,
    // or until the node has failed for about as long as a blockhash lives.
    for (let failures = 0; ;) {
      let status;
      let expired = false;
      try {
        status = (await send('getSignatureStatuses', this.url, this.rpc.getSignatureStatuses([signature]))).value[0];
        if (!status) expired = (await this.blockHeight()) > lastValidBlockHeight;
        failures = 0;
      } catch (e) {
        if (!(e instanceof RpcError) || ++failures >= MAX_POLL_FAILURES) throw e;
        await sleep(this.pollMs);
        continue;
      }
      if (status?.err)
        throw new TransactionFailed(
          `transaction ${signature} failed: ${JSON.stringify(status.err, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`,
        );
      if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized'))
        return signature;
      if (expired) throw new RpcError(`transaction ${signature} expired before it landed`);
      await sleep(this.pollMs);
    }
  }
}
