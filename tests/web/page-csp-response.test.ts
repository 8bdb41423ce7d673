import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPageCsp } from '@/lib/web/html-response-csp';

/*
 * scripts/serve.ts's response wrapper on a real Node.js HTTP server: HTML answers get the CSP
 * made for their own inline scripts (compressed or not, written at once or in pieces); other
 * answers, 304s and body-less answers pass untouched.
 */

const policy = { appUrl: new URL('http://localhost:3000'), publicRpcUrl: 'http://127.0.0.1:8899' };
const HTML = '<html><head><script>a()</script></head><body><script src="/x.js"></script><script>self.__next_f.push([1,"x"])</script></body></html>';
const sha = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    withPageCsp(res, policy);
    switch (req.url) {
      case '/plain':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.write(HTML.slice(0, 40));
        res.end(HTML.slice(40));
        return;
      case '/gzip':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
        res.end(gzipSync(HTML));
        return;
      case '/2':
      case '/1':
        // the same path and headers, a different script: the CSP follows the bytes sent
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`<html><script>v(${req.url.slice(1)})</script></html>`);
        return;
      case '/304':
        res.writeHead(304, { 'content-type': 'text/html; charset=utf-8', etag: '"x"' });
        res.end();
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function scriptSrc(res: Response): string[] | undefined {
  return res.headers
    .get('content-security-policy')
    ?.split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'script-src')
    ?.slice(1);
}

describe('withPageCsp', () => {
  it.each([['/plain'], ['/gzip']])('%s: the CSP lists the hashes of the inline scripts, the body is sent as it was', async (path) => {
    const res = await fetch(`${base}${path}`);
    expect(await res.text()).toBe(HTML);
    expect(scriptSrc(res)).toEqual(["'self'", sha('a()'), sha('self.__next_f.push([1,"x"])')]);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('each body gets the hashes of its own scripts, again when it is sent again', async () => {
    for (const n of ['1', '2', '1', '2']) expect(scriptSrc(await fetch(`${base}/${n}`))).toEqual(["'self'", sha(`v(${n})`)]);
  });

  it('a 304 carries no CSP (the browser merges its headers into the copy it keeps)', async () => {
    const res = await fetch(`${base}/304`, { headers: { 'if-none-match': '"x"' } });
    expect(res.status).toBe(304);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('anything but HTML passes untouched', async () => {
    const res = await fetch(`${base}/json`);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
