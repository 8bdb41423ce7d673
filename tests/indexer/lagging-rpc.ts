import { startRpcProxy, type RpcCall } from '../support/rpc-proxy';

export interface LaggingRpc {
  url: string;
  /** getTransaction calls answered null so far. */
  nullsServed(): number;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of a cluster that behaves like a load-balanced provider whose
 * nodes lag: the first `nullsPerSignature` getTransaction calls for each signature answer
 * `null` (as a node that has not caught up does), later ones are forwarded, alone or inside
 * a batch request alike. Everything else is forwarded as it is.
 */
export async function startLaggingRpc(upstream: string, nullsPerSignature: number): Promise<LaggingRpc> {
  const asked = new Map<string, number>();
  let nulls = 0;
  /** Whether this getTransaction is answered null (the node behind has not caught up). */
  const lags = (call: RpcCall): boolean => {
    if (call.method !== 'getTransaction') return false;
    const signature = String(call.params?.[0]);
    const count = asked.get(signature) ?? 0;
    asked.set(signature, count + 1);
    if (count >= nullsPerSignature) return false;
    nulls += 1;
    return true;
  };
  const nullAnswer = (call: RpcCall) => ({ jsonrpc: '2.0', id: call.id, result: null });
  const proxy = await startRpcProxy(upstream, async (request, forward) => {
    if (Array.isArray(request)) {
      const lagging = new Set(request.filter(lags));
      const rest = request.filter((c) => !lagging.has(c));
      const answers = rest.length ? ((await forward(rest)) as RpcCall[]) : [];
      return { json: request.map((c) => (lagging.has(c) ? nullAnswer(c) : answers.find((a) => a.id === c.id))) };
    }
    return request && lags(request) ? { json: nullAnswer(request) } : undefined;
  });
  return { url: proxy.url, nullsServed: () => nulls, close: proxy.close };
}
