import { PublicKey, type ConfirmedSignatureInfo, type Connection, type Finality } from '@solana/web3.js';
import { z } from 'zod';
import { deadlineFetch, rpcCall, RPC_TIMEOUT_MS } from './rpc';

/*
 * getSignaturesForAddress for many accounts in one HTTP request (a JSON-RPC batch): the same
 * calls, each answered on its own, without an HTTP round trip and a client-side parse per
 * account. The payment finding pass reads a thousand payout accounts a run this way. web3.js
 * has no public batch for this method, so the request is written here, through the deadline and
 * 429 handling of every other call (lib/chain/rpc.ts). A provider that refuses batches gets the
 * calls one by one.
 */

export interface SignaturesRequest {
  address: string;
  /** Newest first, down to (not including) this signature. */
  until?: string;
  before?: string;
  limit: number;
}

const SignatureInfo = z.object({
  signature: z.string(),
  slot: z.number(),
  err: z.unknown().transform((e) => (e ?? null) as ConfirmedSignatureInfo['err']),
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
 * Endpoints that refused a batch, and until when they are asked one by one without trying
 * again: a provider's plan rarely changes, but a one-off error page must not end batching for good.
 */
const refusedUntil = new Map<string, number>();
const ASK_AGAIN_AFTER_MS = 10 * 60_000;

/** Each request's signatures, or the Error its call got, in the order asked. */
export async function signaturesForAddresses(
  connection: Connection,
  requests: SignaturesRequest[],
  commitment: Finality = 'confirmed',
): Promise<(ConfirmedSignatureInfo[] | Error)[]> {
  if (requests.length === 0) return [];
  if ((refusedUntil.get(connection.rpcEndpoint) ?? 0) > Date.now()) return oneByOne(connection, requests, commitment);
  const body = requests.map(({ address, until, before, limit }, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'getSignaturesForAddress',
    params: [address, { limit, commitment, ...(until ? { until } : {}), ...(before ? { before } : {}) }],
  }));
  const answer = await rpcCall(async () => {
    const res = await deadlineFetch(RPC_TIMEOUT_MS)(connection.rpcEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return BatchAnswer.safeParse(await res.json().catch(() => null));
  });
  if (!answer.success) {
    refusedUntil.set(connection.rpcEndpoint, Date.now() + ASK_AGAIN_AFTER_MS);
    return oneByOne(connection, requests, commitment);
  }
  const byId = new Map(answer.data.map((item) => [item.id, item]));
  return requests.map((_, id) => {
    const item = byId.get(id);
    if (item?.result) return item.result as ConfirmedSignatureInfo[];
    return new Error(
      item?.error ? `getSignaturesForAddress: ${item.error.message}` : 'getSignaturesForAddress: no answer',
    );
  });
}

/** Calls asked at once when one by one: a provider that refuses batches is usually a small plan. */
const ONE_BY_ONE_IN_FLIGHT = 8;

async function oneByOne(
  connection: Connection,
  requests: SignaturesRequest[],
  commitment: Finality,
): Promise<(ConfirmedSignatureInfo[] | Error)[]> {
  const answers: (ConfirmedSignatureInfo[] | Error)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      const { address, until, before, limit } = requests[i]!;
      answers[i] = await rpcCall(() =>
        connection.getSignaturesForAddress(new PublicKey(address), { until, before, limit }, commitment),
      ).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ONE_BY_ONE_IN_FLIGHT, requests.length) }, worker));
  return answers;
}
