import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small edge proxy, as Vercel's is to a bare `next start`: it sets `x-vercel-forwarded-for`
 * from the socket (replacing any a client sent), keeps the Host it was asked for (so a page
 * that fetched itself through its own URL would come through here again and be counted),
 * and counts every request it forwards, by path.
 */
export interface CountingProxy {
  url: string;
  /** Point it at the app (started after the proxy, so the app's APP_URL can be the proxy's). */
  target(url: string): void;
  /** How many requests reached the app through it, per path. */
  counts(): Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(): Promise<CountingProxy> {
  let upstream: URL | undefined;
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    if (!upstream) {
      res.writeHead(502).end();
      return;
    }
    const path = req.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const headers = { ...req.headers, 'x-vercel-forwarded-for': req.socket.remoteAddress ?? '' };
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    target: (url) => (upstream = new URL(url)),
    counts: () => new Map(counts),
    reset: () => counts.clear(),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
