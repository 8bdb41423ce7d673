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
// (lib/http/client-address.ts). Besides, it answers what no route serves (TRACE, `OPTIONS *`)
// and sheds heavy requests while the event loop is busy (lib/http/shed-at-the-door.ts), each
// in the envelope. Pages, their CSP and compression are Next.js's, as under a bare `next start`
// or on Vercel.
import { createServer, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { markSocketAddressServer, stampSocketAddress } from '@/lib/http/client-address';
import { unservedRequest } from '@/lib/http/unserved-request';
import { shedAtTheDoor } from '@/lib/http/shed-at-the-door';
import { ConfigError, parseConfig } from '@/lib/core/config';
import { CRON_ROUTES } from '@/lib/core/schedule';
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
    logger.info({ url: localnet.url, programId: config.solana.programId }, 'localnet started');
  }
  process.env.CRON_SECRET ??= randomBytes(24).toString('base64url');
  if (config.database.driver === 'pglite')
    logger.info({ dataDir: config.database.dataDir }, 'database: embedded PGlite');
  logger.info({ clientAddress: describeClientAddress(config.clientAddress) }, 'client address source');

  const { default: next } = await import('next');
  const app = next({ dev: mode === 'dev', dir: process.cwd(), hostname: host ?? 'localhost', port });
  const handle = app.getRequestHandler();
  // Before Next.js loads any app code: everything it runs in this process is behind this server.
  markSocketAddressServer();
  await app.prepare();
  const server = createServer((req, res) => {
    const unserved = unservedRequest(req.method, req.url) ?? shedAtTheDoor(req.method, req.url, config.heavyWork);
    if (unserved) return void answerWith(res, unserved);
    stampSocketAddress(req);
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
  logger.info({ url: `http://${host ?? 'localhost'}:${port}`, mode }, 'listening');

  // The cron routes on their intervals, as Vercel cron calls them in production
  // (lib/features/schedule/passes.ts); one call at a time per route.
  const timers = CRON_ROUTES.map(({ path, intervalSeconds }) => {
    const ms = intervalSeconds(config) * 1000;
    if (ms <= 0) return undefined;
    let running = false;
    return setInterval(() => {
      if (running) return;
      running = true;
      fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } })
        .then((res) => res.arrayBuffer())
        .catch(() => {}) // the server may still be starting
        .finally(() => (running = false));
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

/** Writes a web Response (a small envelope) to Node's response. */
function answerWith(res: ServerResponse, answer: Response): void {
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  void answer.text().then((body) => res.end(body));
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
