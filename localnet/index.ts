import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { COMMITTED_SO, LOCALNET_PROGRAM_KEYPAIR } from '@/program/build';
import { LocalChain } from './chain';
import { loadSnapshot, SnapshotWriter } from './persistence';
import { RequestActivity, closeServer, createRpcRequestListener, handleWebSocketUpgrade, listen } from './server';
import type { WebSocket } from 'ws';

export { LocalChain } from './chain';
export type { TxRecord, Commitment } from './chain';

export interface LocalnetOptions {
  /** 0 picks a free port; the PubSub WebSocket listens on port + 1, as a validator's does. */
  port?: number;
  host?: string;
  /** Where the chain state is kept; null keeps it in memory only. */
  dataDir?: string | null;
  programs?: { programId: string; soPath: string; keypairPath: string }[];
  /** How long a landed transaction stays `confirmed` before it is `finalized`. */
  finalityDelayMs?: number;
  /** The wall clock (ms) block times follow; a test moves it forward to see time pass on chain (a released tag's rest). */
  now?: () => number;
}

export interface Localnet {
  url: string;
  port: number;
  /** PubSub endpoint; `Connection` derives it from `url` (port + 1) on its own. */
  wsUrl: string;
  chain: LocalChain;
  close(): Promise<void>;
}

const PORT_PAIR_ATTEMPTS = 20;

/**
 * Starts a Solana JSON-RPC server over LiteSVM (DESIGN "Localnet"): HTTP on `port`, the
 * PubSub WebSocket on `port + 1` and on `port` itself, state in `dataDir` when given.
 */
export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = options.dataDir ?? null;
  // The committed build, deployed at LOCALNET_PROGRAM_ID when present.
  const programs =
    options.programs ??
    (existsSync(COMMITTED_SO)
      ? [{ programId: LOCALNET_PROGRAM_ID, soPath: COMMITTED_SO, keypairPath: LOCALNET_PROGRAM_KEYPAIR }]
      : []);

  let writer: SnapshotWriter | null = null;
  const restored = dataDir ? loadSnapshot(dataDir) : null;
  const chain = new LocalChain(
    { programs, finalityDelayMs: options.finalityDelayMs ?? 0, now: options.now, onChange: () => writer?.schedule() },
    restored ?? undefined,
  );
  if (dataDir) {
    writer = new SnapshotWriter(dataDir, () => chain.snapshot());
    if (!restored) await writer.flush();
  }

  const connections = new Set<WebSocket>();
  const activity = new RequestActivity();
  const onRequest = createRpcRequestListener(chain, activity);
  const onUpgrade = handleWebSocketUpgrade(chain, connections);
  const make = () => {
    const server = createServer(onRequest);
    server.on('upgrade', onUpgrade);
    // Long-lived keep-alive sockets must not hold close() up.
    server.keepAliveTimeout = 5_000;
    return server;
  };

  const { http, ws, port } = await listenPair(make, options.port ?? 0, host);
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  let closed = false;
  return {
    url: `http://${hostInUrl}:${port}`,
    port,
    wsUrl: `ws://${hostInUrl}:${port + 1}`,
    chain,
    async close() {
      if (closed) return;
      closed = true;
      // Clients often have a last call in flight (web3.js checks a status after every
      // confirmation); let it finish instead of failing it with a reset socket.
      await activity.quiet();
      // 1000: a normal close, after which web3.js clients do not try to reconnect.
      for (const c of connections) c.close(1000);
      await Promise.all([closeServer(http), closeServer(ws)]);
      chain.close();
      await writer?.flush();
    },
  };
}

/** Listens on `port` and `port + 1`; with port 0, retries until a free adjacent pair is found. */
async function listenPair(
  make: () => Server,
  port: number,
  host: string,
): Promise<{ http: Server; ws: Server; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const http = make();
    const bound = await listen(http, port, host);
    const ws = make();
    try {
      await listen(ws, bound + 1, host);
      return { http, ws, port: bound };
    } catch (e) {
      await closeServer(http);
      if (port !== 0 || attempt >= PORT_PAIR_ATTEMPTS) {
        throw new Error(
          `localnet: cannot listen on ${host}:${bound + 1} for the PubSub WebSocket: ${(e as Error).message}`,
        );
      }
    }
  }
}
