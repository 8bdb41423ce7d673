import {
  address,
  isSolanaError,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type RpcTransport,
  type Signature,
  type TransactionError,
} from '@solana/kit';
import { z } from 'zod';
import { ClusterUnreachableError, rpcCall, type SolanaRpc } from './rpc';

/*
 * getSignaturesForAddress for many accounts in one HTTP request (a JSON-RPC batch): the same
 * calls, each answered on its own, without an HTTP round trip and a client-side parse per
 * account. The payment finding pass reads a thousand payout accounts a run this way. Kit's RPC
 * has no batch, so the request is written here and sent through the RPC's own transport
 * (lib/chain/rpc-transport.ts: its deadline, 429 waits and metrics). A provider that refuses
 * batches gets the calls one by one.
 */

export interface SignaturesRequest {
  address: string;
  /** Newest first, down to (not including) this signature. */
  until?: string;
  before?: string;
  limit: number;
}

/** What the cluster lists of one transaction of an address, slots and times as numbers. */
export interface ListedSignature {
  signature: string;
  slot: number;
  err: TransactionError | null;
  memo: string | null;
  blockTime?: number | null;
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized';
}

/** Kit's RPC and the transport under it (lib/chain/rpc.ts `createKitClient`, or `getRpc` with `getRpcTransport`). */
export interface BatchClient {
  rpc: SolanaRpc;
  transport: RpcTransport;
}

const SignatureInfo = z.object({
  signature: z.string(),
  slot: z.number(),
  err: z.unknown().transform((e) => (e ?? null) as TransactionError | null),
  memo: z.string().nullable().optional().default(null),
  blockTime: z.number().nullable().optional(),
  confirmationStatus: z.enum(['processed', 'confirmed', 'finalized']).optional(),
});
const BatchAnswer = z.array(
  z.object({
    id: z.number(),
    result: z.array(SignatureInfo).optional(),
    error: z.object({ code: z.number(), message: z.string() }).optional(),
  }),
);

/**
 * Transports whose endpoint refused a batch, and until when they are asked one by one without
 * trying again: a provider's plan rarely changes, but a one-off error page must not end batching for good.
 */
const refusedUntil = new WeakMap<RpcTransport, number>();
const ASK_AGAIN_AFTER_MS = 10 * 60_000;

/**
 * A batch the provider answered, but not as a batch: an HTTP error other than a rate limit or
 * an outage, or a body that is not JSON (the transport reports that as unreachable, the
 * parser's SyntaxError as its cause).
 */
function isRefusedBatch(err: unknown): boolean {
  if (isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR))
    return err.context.statusCode !== 429 && err.context.statusCode < 500;
  return err instanceof ClusterUnreachableError && err.cause instanceof SyntaxError;
}

/** Each request's signatures, or the Error its call got, in the order asked. */
export async function signaturesForAddresses(
  { rpc, transport }: BatchClient,
  requests: SignaturesRequest[],
  commitment: 'confirmed' | 'finalized' = 'confirmed',
): Promise<(ListedSignature[] | Error)[]> {
  if (requests.length === 0) return [];
  if ((refusedUntil.get(transport) ?? 0) > Date.now()) return oneByOne(rpc, requests, commitment);
  const payload = requests.map(({ address, until, before, limit }, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'getSignaturesForAddress',
    params: [address, { limit, commitment, ...(until ? { until } : {}), ...(before ? { before } : {}) }],
  }));
  const answer = await rpcCall(async () => {
    try {
      return BatchAnswer.safeParse(await transport({ payload }));
    } catch (err) {
      if (isRefusedBatch(err)) return null;
      throw err;
    }
  });
  if (!answer?.success) {
    refusedUntil.set(transport, Date.now() + ASK_AGAIN_AFTER_MS);
    return oneByOne(rpc, requests, commitment);
  }
  const byId = new Map(answer.data.map((item) => [item.id, item]));
  return requests.map((_, id) => {
    const item = byId.get(id);
    if (item?.result) return item.result;
    return new Error(
      item?.error ? `getSignaturesForAddress: ${item.error.message}` : 'getSignaturesForAddress: no answer',
    );
  });
}

/** Calls asked at once when one by one: a provider that refuses batches is usually a small plan. */
const ONE_BY_ONE_IN_FLIGHT = 8;

async function oneByOne(
  rpc: SolanaRpc,
  requests: SignaturesRequest[],
  commitment: 'confirmed' | 'finalized',
): Promise<(ListedSignature[] | Error)[]> {
  const answers: (ListedSignature[] | Error)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      answers[i] = await listOne(rpc, requests[i]!, commitment).catch((err: unknown) =>
        err instanceof Error ? err : new Error(String(err)),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(ONE_BY_ONE_IN_FLIGHT, requests.length) }, worker));
  return answers;
}

async function listOne(
  rpc: SolanaRpc,
  { address: account, until, before, limit }: SignaturesRequest,
  commitment: 'confirmed' | 'finalized',
): Promise<ListedSignature[]> {
  const listed = await rpcCall(() =>
    rpc
      .getSignaturesForAddress(address(account), {
        limit,
        commitment,
        ...(until ? { until: until as Signature } : {}),
        ...(before ? { before: before as Signature } : {}),
      })
      .send(),
  );
  return listed.map(listedSignature);
}

/** An entry of kit's getSignaturesForAddress, its slot and time as numbers. */
export function listedSignature(
  info: Awaited<ReturnType<ReturnType<SolanaRpc['getSignaturesForAddress']>['send']>>[number],
): ListedSignature {
  return {
    signature: info.signature,
    slot: Number(info.slot),
    err: info.err,
    memo: info.memo,
    blockTime: info.blockTime === null ? null : Number(info.blockTime),
    confirmationStatus: info.confirmationStatus ?? undefined,
  };
}
