import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { inject } from 'vitest';
import { apiRoutes } from '@/app/api/api-routes';
import { v1Routes } from '@/app/v1/v1-routes';
import { parseConfig, type Config } from '@/lib/core/config';
import { openDb, type Db } from '@/lib/db/client';
import { servicesOf, type Services } from '@/lib/http/services';
import { unknownPath, v1Handlers } from '@/lib/http/v1-route';
import { TEST_AUTH_SECRET, TEST_CRON_SECRET } from '@/devstack/app';
import { LIFTED_LOAD_BOUNDS } from '@/devstack/rate-limits';
import type { TestDatabase } from './database';
import { held, type Lifetime } from './held';
import { startRpcProxy, type RpcIntercept, type RpcProxy } from './rpc-proxy';
import { expectDocumentedError } from './error-contract';

/*
 * The /v1 API in the test's own process: every route's handlers bound to services of the
 * test's own (its configuration, its database), called directly. A configuration variant is a
 * value here, not another server (tests/README.md "Which tests start a process"). `url` is a
 * listener in this same process that hands each request to the same handlers, so helpers that
 * take a base URL (signIn, the clients) work unchanged; `fetch` skips the socket altogether.
 * Every /v1 error answer either gives is checked against the OpenAPI document (./error-contract.ts).
 */

/** The environment every in-process app starts from: the shared PostgreSQL and localnet, the client address from the one proxy. */
export function baseEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: inject('databaseUrl'),
    SOLANA_RPC_URL: inject('rpcUrl'),
    APP_URL: 'http://127.0.0.1:3999',
    AUTH_SECRET: TEST_AUTH_SECRET,
    CRON_SECRET: TEST_CRON_SECRET,
    CLIENT_ADDRESS_SOURCE: 'proxy',
    TRUSTED_PROXY_HOPS: '1',
    INDEXER_INTERVAL_SECONDS: '0',
    WEBHOOK_INTERVAL_SECONDS: '0',
    ...LIFTED_LOAD_BOUNDS, // bounds that depend on the process's load: tested with bounds of their own
  };
}

export interface InProcessApp {
  config: Config;
  services: Services;
  db: Db;
  /** A base URL answered in this process by the same handlers (a listener on 127.0.0.1). */
  url: string;
  /** One request to the /v1 handlers, no socket: `path` is absolute (`/v1/...`) and may carry a query. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

type MethodHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A declared path (`{name}` for a segment) as a pattern, with its segments' names in order. */
function pathPattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = new RegExp(
    '^' + path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)')) + '/?$',
  );
  return { pattern, names };
}

/** The /v1 routes and the /api routes that take services (app/api/api-routes.ts), bound to `services`. */
function router(services: Services): (req: Request) => Promise<Response> {
  const provide = async () => services;
  const bound: { path: string; v1: boolean; handlers: Record<string, MethodHandler> }[] = [
    ...v1Routes().map((declaration) => ({
      path: declaration.path,
      v1: true,
      handlers: v1Handlers(declaration, provide) as Record<string, MethodHandler>,
    })),
    ...apiRoutes().map((route) => ({
      path: route.path,
      v1: false,
      handlers: route.handlers(provide) as Record<string, MethodHandler>,
    })),
  ];
  const routes = bound.map(({ path, v1, handlers }) => ({ ...pathPattern(path), path, v1, handlers }));
  return async (req) => {
    const { pathname } = new URL(req.url);
    for (const { pattern, names, path, v1, handlers } of routes) {
      const match = pattern.exec(pathname);
      if (!match) continue;
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      const handler = handlers[req.method.toUpperCase()] ?? handlers.GET; // HEAD: what GET answers, as Next.js does
      const response = await handler!(req, { params: Promise.resolve(params) });
      if (v1) await expectDocumentedError(path, req.method, response); // the error contract (./error-contract.ts)
      return response;
    }
    return unknownPath(req);
  };
}

/**
 * `APP_URL: LISTENER_ORIGIN`: the app's public origin is its own listener, for clients that
 * derive the host from what they look up (WebFinger's `acct:tag@host`, NIP-05's `tag@host`).
 */
export const LISTENER_ORIGIN = 'listener';

/** Services for `env` over the base environment, with a database handle of their own. */
export async function inProcessApp(env: Record<string, string> = {}): Promise<InProcessApp> {
  // Requests arrive only once this function has answered, after `route` is set.
  let route: (req: Request) => Promise<Response> = unknownPath;
  const listener = createServer((req, res) => void answer(route, req, res));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const merged = { ...baseEnv(), ...env };
  if (merged.APP_URL === LISTENER_ORIGIN) merged.APP_URL = url;
  const config = parseConfig(merged);
  const main = await openDb(config.database, { poolSize: 6, name: 'main' });
  const services = await servicesOf(config, main.db);
  route = router(services);
  return {
    config,
    services,
    db: main.db,
    url,
    fetch: (path, init) => {
      const headers = new Headers(init?.headers);
      if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', '127.0.0.1'); // the one proxy names the client
      return route(new Request(new URL(path, url), { ...init, headers }));
    },
    async close() {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
      await main.close();
    },
  };
}

/** The listener's side: a Node request in, our handlers' Response out. The socket's peer is the client the one proxy names. */
async function answer(
  route: (req: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', req.socket.remoteAddress ?? '127.0.0.1');
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
  let response: Response;
  try {
    response = await route(request);
  } catch (err) {
    // An answer outside the error contract (./error-contract.ts): the client sees why, and the test fails.
    res.writeHead(599, { 'Content-Type': 'text/plain' }).end(String(err));
    throw err;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body && req.method !== 'HEAD')
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}

export interface HeldInProcessOptions {
  /** The database it runs on (the shared one when not given), e.g. an ownDatabase() the test also reads. */
  database?: TestDatabase;
  lifetime?: Lifetime;
}

/** An in-process app held for a describe's (or file's) tests, closed after them (./held.ts). */
export function heldInProcessApp(
  env: Record<string, string> = {},
  { database, lifetime }: HeldInProcessOptions = {},
): () => InProcessApp {
  const open = () => inProcessApp(database ? { DATABASE_URL: database.url, ...env } : env);
  return held('the in-process app', open, (app) => app.close(), lifetime);
}

/**
 * An in-process app held for the file's tests on the shared database, whose cluster is the
 * shared localnet behind a proxy (./rpc-proxy.ts): `intercept` answers the calls it chooses,
 * the rest reach the localnet.
 */
export function heldInProcessBehindRpcProxy(
  intercept: RpcIntercept,
  env: Record<string, string> = {},
): () => InProcessApp {
  let proxy: RpcProxy | undefined;
  const open = async () => {
    proxy = await startRpcProxy(inject('rpcUrl'), intercept);
    return inProcessApp({ SOLANA_RPC_URL: proxy.url, ...env });
  };
  return held('the in-process app behind an RPC proxy', open, async (app) => {
    await app.close();
    await proxy?.close();
  });
}
