// `npm run dev` / `npm start`: the app with embedded defaults. Starts a localnet when
// SOLANA_RPC_URL is unset, runs Next.js (dev or production) in this process behind our own
// HTTP server, and calls the cron routes on their intervals, as Vercel cron would in
// production (lib/features/schedule/passes.ts).
//
// Why our own HTTP server rather than `next start`: Next.js gives route handlers, server
// actions and next-auth no access to the socket, and it fills X-Forwarded-For in only when a
// client left it out. With nothing in front of the app (CLIENT_ADDRESS_SOURCE=direct, the
// default here), the rate limit must key on the socket's peer: this server stamps it into a
// header of its own on every request, after deleting any copy the client sent
// (lib/http/client-address.ts). Besides, it answers what no route serves (TRACE, `OPTIONS *`, a
// target with a dot segment, an encoded slash or a fragment: lib/http/request-target.ts)
// and sheds heavy requests while the event loop is busy (lib/http/shed-at-the-door.ts), each
// in the envelope. Pages, their CSP and compression are Next.js's, as under a bare `next start`
// or on Vercel.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  clientAddress,
  markSocketAddressServer,
  SOCKET_ADDRESS_HEADER,
  stampSocketAddress,
} from '@/lib/http/client-address';
import { unservedRequest } from '@/lib/http/unserved-request';
import { nonCanonicalTarget, nonCanonicalTargetResponse } from '@/lib/http/request-target';
import { shedAtTheDoor } from '@/lib/http/shed-at-the-door';
import { ConfigError, parseConfig } from '@/lib/core/config';
import { CRON_ROUTES } from '@/lib/core/schedule';
import { verifyCluster } from '@/lib/chain/cluster-identity';
import { getRpc } from '@/lib/chain/rpc';
import { flushLogs, logger } from '@/lib/observability/logger';

const mode = process.argv[2] === 'dev' ? 'dev' : 'start';

async function main(): Promise<void> {
  // React and Next.js read NODE_ENV when they load: set it before importing them.
  (process.env as Record<string, string>).NODE_ENV = mode === 'dev' ? 'development' : 'production';
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  // Unset APP_URL is http://localhost:PORT: the sign-in domain is where the app really listens.
  const config = parseConfig(process.env);
  const { port, host } = config.server;
  let closeLocalnet = async () => {};

  if (!config.solana.rpcUrl) {
    const { startLocalnet } = await import('@/localnet');
    const localnet = await startLocalnet({
      port: config.server.localnetPort,
      dataDir: path.join(config.dataDir, 'localnet'),
    });
    process.env.SOLANA_RPC_URL = localnet.url;
    closeLocalnet = localnet.close;
    logger.debug({ url: localnet.url, programId: config.solana.programId }, 'localnet started');
  }
  // The cluster is never assumed: its genesis hash must agree with SOLANA_CLUSTER (a localnet
  // started here is checked too: SOLANA_CLUSTER=devnet without SOLANA_RPC_URL is refused).
  const running = parseConfig(process.env);
  await verifyCluster(running, getRpc(running), process.env);
  process.env.CRON_SECRET ??= randomBytes(24).toString('base64url');
  logger.debug({ clientAddress: describeClientAddress(config.clientAddress) }, 'client address source');

  const { default: next } = await import('next');
  const app = next({ dev: mode === 'dev', dir: process.cwd(), hostname: host ?? 'localhost', port });
  const handle = app.getRequestHandler();
  // Before Next.js loads any app code: everything it runs in this process is behind this server.
  markSocketAddressServer();
  await app.prepare();
  const server = createServer((req, res) => {
    if (req.url && nonCanonicalTarget(req.url))
      return void nonCanonicalTargetResponse(req.url).then((answer) => answerWith(res, answer!));
    stampSocketAddress(req);
    const unserved =
      unservedRequest(req.method, req.url) ??
      shedAtTheDoor(req.method, req.url, config.heavyWork, () => clientOfRequest(req, config.clientAddress));
    if (unserved) return void answerWith(res, unserved);
    handle(req, res).catch((err) => {
      logger.error({ err, method: req.method, path: req.url?.split('?')[0] }, 'request failed');
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  // Above a load balancer's idle timeout, so that it closes idle connections first and never
  // sends a request down one this server is closing (docs/operating-rpc.md).
  server.keepAliveTimeout = config.server.keepAliveTimeoutMs;
  server.headersTimeout = config.server.headersTimeoutMs;
  if (mode === 'dev') server.on('upgrade', app.getUpgradeHandler());
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const url = `http://${host ?? 'localhost'}:${port}`;
  logger.debug({ url, mode }, 'listening');
  // One readable line for whoever started it; the routine work after it logs at debug.
  process.stdout.write(`${readyLine(url, running, !config.solana.rpcUrl)}\n`);

  // The cron routes on their intervals, as Vercel cron calls them in production
  // (lib/core/schedule.ts); one call at a time per route.
  const timers = CRON_ROUTES.map(({ path, intervalSeconds }) => {
    const ms = intervalSeconds(config) * 1000;
    if (ms <= 0) return undefined;
    let calling = false;
    return setInterval(() => {
      if (calling) return;
      calling = true;
      fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } })
        .then((res) => res.arrayBuffer())
        .catch(() => {}) // the server may still be starting
        .finally(() => (calling = false));
    }, ms);
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close().catch(() => {});
    await closeLocalnet();
    await flushLogs(); // a write still in flight at exit could be lost: wait for it
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/** The client a heavy request is counted for (lib/http/client-address.ts), or undefined when it cannot be known. */
function clientOfRequest(req: IncomingMessage, source: ReturnType<typeof parseConfig>['clientAddress']) {
  const headers = new Headers();
  for (const name of [SOCKET_ADDRESS_HEADER, 'x-forwarded-for', 'x-vercel-forwarded-for']) {
    const value = req.headers[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  try {
    return clientAddress(headers, source);
  } catch {
    return undefined;
  }
}

/** Writes a web Response (a small envelope) to Node's response. */
function answerWith(res: ServerResponse, answer: Response): void {
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  void answer.text().then((body) => res.end(body));
}

/** "Ready on URL · database · cluster · test wallet", with no secret (a URL's credentials and query are left out). */
function readyLine(url: string, config: ReturnType<typeof parseConfig>, localnetStarted: boolean): string {
  const { database, solana } = config;
  const db =
    database.driver === 'pglite' ? `embedded PGlite in ${database.dataDir}` : `PostgreSQL at ${hostOf(database.url)}`;
  const rpc = solana.rpcUrl ? hostOf(solana.rpcUrl) : 'no RPC';
  const cluster = `${solana.cluster} at ${rpc}${localnetStarted ? ', started with the app' : ''}`;
  const wallet = solana.cluster === 'localnet' ? ' · test wallet: on (localnet only)' : '';
  return `Ready on ${url} · database: ${db} · cluster: ${cluster}${wallet}`;
}

/** The host (and port, and a database's name) of a URL: never its user, password or query. */
function hostOf(text: string): string {
  try {
    const parsed = new URL(text);
    const name = parsed.protocol.startsWith('postgres') ? parsed.pathname : '';
    return `${parsed.host}${name}`;
  } catch {
    return 'an unparsable URL';
  }
}

function describeClientAddress(source: ReturnType<typeof parseConfig>['clientAddress']): string {
  if (source.source === 'proxy') return `x-forwarded-for, ${source.hops} trusted proxy hop(s) from the right`;
  if (source.source === 'vercel') return "Vercel's x-vercel-forwarded-for";
  return 'the socket peer (direct; forwarding headers ignored)';
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
