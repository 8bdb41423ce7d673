import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  type Call = { id?: unknown; method?: string; params?: unknown[] };
  /** Whether this getTransaction is answered null (the node behind has not caught up). */
  const lags = (call: Call): boolean => {
    if (call.method !== 'getTransaction') return false;
    const signature = String(call.params?.[0]);
    const count = asked.get(signature) ?? 0;
    asked.set(signature, count + 1);
    if (count >= nullsPerSignature) return false;
    nulls += 1;
    return true;
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let call: { id?: unknown; method?: string; params?: unknown[] } | undefined;
    try {
      call = JSON.parse(body);
    } catch {
      call = undefined;
    }
    if (Array.isArray(call)) {
      const lagging = new Set((call as Call[]).filter(lags));
      const rest = (call as Call[]).filter((c) => !lagging.has(c));
      const answers = rest.length
        ? ((await (await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) })).json()) as Call[])
        : [];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify((call as Call[]).map((c) => (lagging.has(c) ? { jsonrpc: '2.0', id: c.id, result: null } : answers.find((a) => a.id === c.id)))));
      return;
    }
    if (call && lags(call)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: null }));
      return;
    }
    try {
      const forwarded = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(forwarded.status, { 'content-type': 'application/json' });
      res.end(await forwarded.text());
    } catch (err) {
      res.writeHead(502);
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    nullsServed: () => nulls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
