import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC call as a client sends it. */
export type RpcCall = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };

/** What an intercept answers instead of the upstream: a JSON body (status 200), or a raw status and text (and headers, e.g. Retry-After). */
export type RpcAnswer = { json: unknown } | { status: number; text: string; headers?: Record<string, string> };

/**
 * Decides one request: `request` is the parsed body (a call, a batch of calls, or undefined
 * when it is not JSON); `forward` asks the upstream with any body and returns its parsed answer.
 * Return undefined to forward the request as it came.
 */
export type RpcIntercept = (
  request: RpcCall | RpcCall[] | undefined,
  forward: (body: unknown) => Promise<unknown>,
) => Promise<RpcAnswer | undefined> | RpcAnswer | undefined;

export interface RpcProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of `upstream` (a cluster) that lets a test play a provider that
 * misbehaves in one way: `intercept` answers what it wants to, the rest is forwarded unchanged
 * (upstream status kept; 502 when the upstream cannot be reached).
 */
export async function startRpcProxy(upstream: string, intercept: RpcIntercept): Promise<RpcProxy> {
  const post = (body: string) =>
    fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const forward = async (body: unknown) => (await post(JSON.stringify(body))).json();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let request: RpcCall | RpcCall[] | undefined;
    try {
      request = JSON.parse(body) as RpcCall | RpcCall[];
    } catch {
      request = undefined;
    }
    try {
      const answer = await intercept(request, forward);
      if (answer && 'json' in answer) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
        return;
      }
      if (answer) {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.text);
        return;
      }
      const forwarded = await post(body);
      res.writeHead(forwarded.status, { 'content-type': 'application/json' });
      res.end(await forwarded.text());
    } catch (err) {
      res.writeHead(502);
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
