/**
 * The few JSON-RPC calls the deploy and verify commands make, over plain fetch so errors
 * (a preflight failure's logs, a blockhash that expired) reach the user as they are.
 */
import { getSignatureFromTransaction, type Transaction } from '@solana/kit';
import type { RecentBlockhash } from './loader-v3';
import { wireBytes } from './loader-v3';

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

export class Cluster {
  private nextId = 1;
  constructor(
    readonly url: string,
    private readonly pollMs = 400,
  ) {}

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
      });
    } catch (e) {
      throw new RpcError(`${method}: cannot reach ${this.url} (${(e as Error).message})`);
    }
    if (!response.ok) throw new RpcError(`${method}: HTTP ${response.status} from ${this.url}`, response.status);
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string; data?: { logs?: string[] | null } } };
    if (body.error) throw new RpcError(`${method}: ${body.error.message}`, body.error.code, body.error.data?.logs ?? []);
    return body.result as T;
  }

  genesisHash(): Promise<string> {
    return this.call<string>('getGenesisHash');
  }

  async clusterName(): Promise<string> {
    return GENESIS_HASHES[await this.genesisHash()] ?? 'custom';
  }

  async latestBlockhash(): Promise<RecentBlockhash> {
    const { value } = await this.call<{ value: { blockhash: string; lastValidBlockHeight: number } }>('getLatestBlockhash', [{ commitment: 'confirmed' }]);
    return { blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) };
  }

  async blockHeight(): Promise<bigint> {
    return BigInt(await this.call<number>('getBlockHeight', [{ commitment: 'confirmed' }]));
  }

  async balance(address: string): Promise<bigint> {
    const { value } = await this.call<{ value: number }>('getBalance', [address, { commitment: 'confirmed' }]);
    return BigInt(value);
  }

  async minimumBalance(size: number): Promise<bigint> {
    return BigInt(await this.call<number>('getMinimumBalanceForRentExemption', [size]));
  }

  async account(address: string): Promise<AccountInfo | null> {
    const { value } = await this.call<{ value: { lamports: number; owner: string; executable: boolean; data: [string, string] } | null }>(
      'getAccountInfo',
      [address, { encoding: 'base64', commitment: 'confirmed' }],
    );
    if (!value) return null;
    return { lamports: BigInt(value.lamports), owner: value.owner, executable: value.executable, data: new Uint8Array(Buffer.from(value.data[0], 'base64')) };
  }

  /**
   * Sends and waits until the transaction is confirmed. Throws TransactionFailed when it
   * landed with an error or preflight refused it, RpcError when its blockhash expired first
   * (then it can never land, and the caller may retry with a new one).
   */
  async sendAndConfirm(tx: Transaction, lastValidBlockHeight: bigint): Promise<string> {
    const signature = getSignatureFromTransaction(tx);
    try {
      await this.call<string>('sendTransaction', [Buffer.from(wireBytes(tx)).toString('base64'), { encoding: 'base64', preflightCommitment: 'confirmed' }]);
    } catch (e) {
      if (e instanceof RpcError && e.code === -32002) throw new TransactionFailed(e.message.split('\n')[0], e.code, e.logs);
      throw e;
    }
    // The transaction may have landed: a failing status or block-height call must not make
    // the caller resend it (a second "create buffer" or "deploy" is refused as already in
    // use). Such an error means "not known yet"; polling goes on until the blockhash expires,
    // or until the node has failed for about as long as a blockhash lives.
    for (let failures = 0; ; ) {
      let status: { err: unknown; confirmationStatus: string | null } | null;
      let expired = false;
      try {
        const { value } = await this.call<{ value: Array<{ err: unknown; confirmationStatus: string | null } | null> }>('getSignatureStatuses', [[signature]]);
        status = value[0];
        if (!status) expired = (await this.blockHeight()) > lastValidBlockHeight;
        failures = 0;
      } catch (e) {
        if (!(e instanceof RpcError) || ++failures >= MAX_POLL_FAILURES) throw e;
        await sleep(this.pollMs);
        continue;
      }
      if (status?.err) throw new TransactionFailed(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
      if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) return signature;
      if (expired) throw new RpcError(`transaction ${signature} expired before it landed`);
      await sleep(this.pollMs);
    }
  }
}
