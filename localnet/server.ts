import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Commitment, LocalChain } from './chain';
import {
  RpcError,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
} from './errors';
import { RPC_METHODS } from './rpc-methods';

/** Bodies above this are refused (a transaction is at most 1232 bytes; batches stay small). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How much of an oversized body is drained before the connection is dropped. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
const MAX_BATCH = 1000;
/** Largest PubSub message accepted; larger ones close the socket with 1009. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

type JsonRpcId = string | number | null;
interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id };
}

function validId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** Runs one JSON-RPC call object; null for notifications (no `id`), which get no answer. */
export function handleCall(
  chain: LocalChain,
  call: unknown,
  extraMethods: Record<string, (params: unknown[], id: JsonRpcId) => unknown> = {},
): JsonRpcResponse | null {
  if (!call || typeof call !== 'object' || Array.isArray(call))
    return errorResponse(null, RPC_INVALID_REQUEST, 'Invalid request');
  const { jsonrpc, method, params, id } = call as Record<string, unknown>;
  const hasId = 'id' in (call as object);
  if (hasId && !validId(id)) return errorResponse(null, RPC_INVALID_REQUEST, 'Invalid request');
  const replyId = hasId ? (id as JsonRpcId) : null;
  if (jsonrpc !== '2.0' || typeof method !== 'string')
    return errorResponse(replyId, RPC_INVALID_REQUEST, 'Invalid request');
  if (params !== undefined && params !== null && !Array.isArray(params)) {
    return errorResponse(replyId, RPC_INVALID_PARAMS, 'Invalid params: expected an array of parameters');
  }
  const handler = Object.hasOwn(extraMethods, method)
    ? (p: unknown[]) => extraMethods[method]!(p, replyId)
    : Object.hasOwn(RPC_METHODS, method)
      ? (p: unknown[]) => RPC_METHODS[method]!(p, chain)
      : null;
  if (!hasId) {
    // A notification: run it for its effect (there is none worth having here) and stay silent.
    return null;
  }
  if (!handler) return errorResponse(replyId, RPC_METHOD_NOT_FOUND, 'Method not found');
  try {
    return { jsonrpc: '2.0', result: handler((params as unknown[] | undefined) ?? []), id: replyId };
  } catch (e) {
    if (e instanceof RpcError) return errorResponse(replyId, e.code, e.message, e.data);
    console.error(`localnet: ${method} failed:`, e);
    return errorResponse(replyId, RPC_INTERNAL_ERROR, 'Internal error');
  }
}

/** Parses a request body and answers it: a single object, or an array for a batch. */
export function handleBody(
  chain: LocalChain,
  body: string,
  extraMethods?: Record<string, (params: unknown[], id: JsonRpcId) => unknown>,
): JsonRpcResponse | JsonRpcResponse[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return errorResponse(null, RPC_PARSE_ERROR, 'Parse error');
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return errorResponse(null, RPC_INVALID_REQUEST, 'Invalid request');
    if (parsed.length > MAX_BATCH)
      return errorResponse(null, RPC_INVALID_REQUEST, `Invalid request: batch larger than ${MAX_BATCH}`);
    const answers = parsed
      .map((call) => handleCall(chain, call, extraMethods))
      .filter((r): r is JsonRpcResponse => r !== null);
    return answers.length ? answers : null;
  }
  return handleCall(chain, parsed, extraMethods);
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = body === null ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...CORS_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Tracks requests so a shutdown can wait for a quiet moment. */
export class RequestActivity {
  inFlight = 0;
  lastRequestAt = 0;

  /** Resolves once nothing is in flight and nothing arrived for `quietMs` (at most `maxMs`). */
  async quiet(quietMs = 100, maxMs = 1000): Promise<void> {
    const deadline = Date.now() + maxMs;
    // Requests already in the socket buffers are only counted once the event loop turns.
    await new Promise((r) => setTimeout(r, quietMs));
    while (Date.now() < deadline && (this.inFlight > 0 || Date.now() - this.lastRequestAt < quietMs)) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** The HTTP side: POST JSON-RPC (batches too), OPTIONS preflights, GET /health. */
export function createRpcRequestListener(chain: LocalChain, activity = new RequestActivity()) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    activity.inFlight++;
    activity.lastRequestAt = Date.now();
    res.on('close', () => {
      activity.inFlight--;
      activity.lastRequestAt = Date.now();
    });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS_HEADERS,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'content-type',
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { ...CORS_HEADERS, Allow: 'POST, OPTIONS', 'Content-Type': 'text/plain' });
      res.end('Used HTTP Method is not allowed. POST or OPTIONS is required');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        // Drain a reasonable amount so the client reads the answer; past that, hang up.
        if (size > MAX_DRAIN_BYTES) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (tooLarge) {
        send(
          res,
          413,
          errorResponse(null, RPC_INVALID_REQUEST, `Invalid request: body larger than ${MAX_BODY_BYTES} bytes`),
        );
        return;
      }
      const answer = handleBody(chain, Buffer.concat(chunks).toString('utf8'));
      send(res, 200, answer);
    });
  };
}

interface Subscription {
  dispose: () => void;
}

/**
 * The PubSub side (what `Connection.confirmTransaction` waits on): signatureSubscribe,
 * slotSubscribe and their unsubscribes. Everything else is answered as on HTTP.
 * The WebSocket protocol itself is the `ws` package's; no compression is negotiated.
 */
export function handleWebSocketUpgrade(chain: LocalChain, connections: Set<WebSocket>) {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  let nextSubscriptionId = 0;
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    server.handleUpgrade(req, socket, head, (ws) => serve(ws));
  };

  function serve(ws: WebSocket): void {
    connections.add(ws);
    const subscriptions = new Map<number, Subscription>();
    const send = (message: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const notify = (method: string, subscription: number, result: unknown) =>
      send({ jsonrpc: '2.0', method, params: { result, subscription } });

    const methods: Record<string, (params: unknown[], id: JsonRpcId) => unknown> = {
      signatureSubscribe: (params) => {
        const signature = params[0];
        if (typeof signature !== 'string')
          throw new RpcError(RPC_INVALID_PARAMS, 'Invalid params: signature must be a string');
        const cfg = (params[1] ?? {}) as { commitment?: string };
        const wanted: Commitment =
          cfg.commitment === 'processed' || cfg.commitment === 'recent'
            ? 'processed'
            : cfg.commitment === 'confirmed' || cfg.commitment === 'single' || cfg.commitment === 'singleGossip'
              ? 'confirmed'
              : 'finalized';
        const id = nextSubscriptionId++;
        const fire = (slot: number, err: unknown) => {
          subscriptions.get(id)?.dispose();
          subscriptions.delete(id);
          notify('signatureNotification', id, { context: { slot }, value: { err } });
        };
        const off = chain.onStatus((sig, commitment, record) => {
          if (sig === signature && commitment === wanted) fire(record.slot, record.err);
        });
        subscriptions.set(id, { dispose: off });
        // Already there: answer right after the subscription id (a node's status cache does too).
        const record = chain.getTransaction(signature);
        if (record && (wanted !== 'finalized' || chain.isFinalized(record.slot))) {
          setImmediate(() => subscriptions.has(id) && fire(record.slot, record.err));
        }
        return id;
      },
      slotSubscribe: () => {
        const id = nextSubscriptionId++;
        const off = chain.onStatus((_sig, commitment, record) => {
          if (commitment === 'processed')
            notify('slotNotification', id, {
              parent: record.slot - 1,
              root: chain.slotAt('finalized'),
              slot: record.slot,
            });
        });
        subscriptions.set(id, { dispose: off });
        return id;
      },
      signatureUnsubscribe: (params) => unsubscribe(params[0]),
      slotUnsubscribe: (params) => unsubscribe(params[0]),
    };
    function unsubscribe(id: unknown): boolean {
      const sub = typeof id === 'number' ? subscriptions.get(id) : undefined;
      if (!sub) throw new RpcError(RPC_INVALID_PARAMS, 'Invalid subscription id.');
      sub.dispose();
      subscriptions.delete(id as number);
      return true;
    }

    ws.on('message', (data) => {
      const answer = handleBody(chain, data.toString(), methods);
      if (answer !== null) send(answer);
    });
    // A reset or a protocol error (ws closes the socket itself and then emits 'close').
    ws.on('error', () => {});
    ws.on('close', () => {
      for (const sub of subscriptions.values()) sub.dispose();
      subscriptions.clear();
      connections.delete(ws);
    });
  }
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Stops accepting, lets requests in flight finish (clients often have one), then hangs up. */
export function closeServer(server: Server, graceMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
