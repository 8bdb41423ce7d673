import 'client-only';
/**
 * The pages' calls to the cluster (balance, rent, send, confirm, the localnet's airdrop) as
 * JSON-RPC over fetch: the few the pages make need no SDK in the page's first load. The
 * wallet's own code (wallet-adapter, web3.js v1) loads with the wallet dialog
 * (components/wallet/LazyWalletRoot.tsx); the server's RPC is lib/chain's.
 */
import { BlockHeightExceededError, RpcError, TransactionFailedError } from './client-errors';

/** How often a send is looked at while it confirms: a slot is about 400 ms. */
const CONFIRM_POLL_MS = 400;
const COMMITMENT = { commitment: 'confirmed' } as const;
/**
 * A provider's 429 is waited out a few times (its Retry-After, else a doubling pause) before
 * the page says so, as web3.js's Connection did for these pages.
 */
const RATE_LIMITED_RETRIES = 4;
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5_000;

interface RpcReply<T> {
  result?: T;
  error?: { code: number; message: string; data?: { logs?: string[]; err?: unknown } };
}

interface SignatureStatus {
  err: unknown;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}

export interface BrowserRpc {
  /** Lamports held by `address`, at the confirmed commitment. */
  getBalance(address: string): Promise<number>;
  getMinimumBalanceForRentExemption(size: number): Promise<number>;
  /** Sends signed wire bytes after the cluster's preflight; the signature. */
  sendTransaction(wire: Uint8Array): Promise<string>;
  /**
   * Resolves once `signature` is confirmed; throws TransactionFailedError when it landed and
   * failed, BlockHeightExceededError once the cluster is past `lastValidBlockHeight` without it.
   */
  confirm(signature: string, lastValidBlockHeight: number): Promise<void>;
  /** Localnet and devnet only: `lamports` to `address`, confirmed. */
  airdrop(address: string, lamports: number): Promise<void>;
}

function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function browserRpc(url: string): BrowserRpc {
  let id = 0;
  async function post(body: string): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (res.status !== 429 || attempt === RATE_LIMITED_RETRIES) return res;
      const asked = Number(res.headers.get('retry-after')) * 1000;
      await sleep(Math.min(asked > 0 ? asked : FIRST_PAUSE_MS * 2 ** attempt, LONGEST_PAUSE_MS));
    }
  }

  async function call<T>(method: string, params: unknown[]): Promise<T> {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
    // An overloaded or unreachable RPC answers with a status and no JSON-RPC body.
    if (!res.ok) throw new RpcError(res.status, `The cluster's RPC answered ${res.status}.`);
    const reply = (await res.json()) as RpcReply<T>;
    if (reply.error) {
      const { code, message, data } = reply.error;
      throw new RpcError(code, message, data?.logs, data?.err);
    }
    return reply.result as T;
  }

  async function confirm(signature: string, lastValidBlockHeight: number): Promise<void> {
    for (;;) {
      const { value } = await call<{ value: (SignatureStatus | null)[] }>('getSignatureStatuses', [[signature]]);
      const status = value[0];
      if (status?.err) throw new TransactionFailedError(status.err);
      if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
      const height = await call<number>('getBlockHeight', [COMMITMENT]);
      if (height > lastValidBlockHeight) throw new BlockHeightExceededError(signature);
      await sleep(CONFIRM_POLL_MS);
    }
  }

  return {
    getBalance: async (address) => (await call<{ value: number }>('getBalance', [address, COMMITMENT])).value,
    getMinimumBalanceForRentExemption: (size) => call<number>('getMinimumBalanceForRentExemption', [size]),
    sendTransaction: (wire) =>
      call<string>('sendTransaction', [
        bytesToBase64(wire),
        { encoding: 'base64', preflightCommitment: 'confirmed', maxRetries: 5 },
      ]),
    confirm,
    async airdrop(address, lamports) {
      const signature = await call<string>('requestAirdrop', [address, lamports, COMMITMENT]);
      const height = await call<number>('getBlockHeight', [COMMITMENT]);
      // An airdrop's blockhash is the faucet's: give it the lifetime of a fresh one (150 blocks).
      await confirm(signature, height + 150);
    },
  };
}
