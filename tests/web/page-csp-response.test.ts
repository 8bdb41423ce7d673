import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPageCsp } from '@/lib/web/html-response-csp';

/*
 * scripts/serve.ts's response wrapper on a real Node.js HTTP server: HTML answers get the CSP
 * made for their own inline scripts (written at once or in pieces) and go out compressed as the
 * request accepts; other answers, 304s and body-less answers pass untouched; a page that arrives
 * already encoded cannot be read, so it runs no inline script (fail closed).
 */

const policy = { appUrl: new URL('http://localhost:3000'), publicRpcUrl: 'http://127.0.0.1:8899' };
const HTML = '<html><head><script>a()</script></head><body><script src="/x.js"></script><script>self.__next_f.push([1,"x"])</script></body></html>';
/** Over the compression threshold, so that it is sent compressed. */
const BIG_HTML = `<html><head><script>b()</script></head><body>${'<p>ordinary profile text</p>'.repeat(60)}</body></html>`;
const sha = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    withPageCsp(req, res, policy);
    switch (req.url) {
      case '/plain':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.write(HTML.slice(0, 40));
        res.end(HTML.slice(40));
        return;
      case '/big':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(BIG_HTML);
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
  it('the CSP lists the hashes of the inline scripts; a page under the threshold is sent as it is', async () => {
    const res = await fetch(`${base}/plain`);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(HTML);
    expect(scriptSrc(res)).toEqual(["'self'", sha('a()'), sha('self.__next_f.push([1,"x"])')]);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', null],
  ])('Accept-Encoding %j: the page goes out as %s, the same page again as well', async (accept, expected) => {
    for (let view = 0; view < 2; view++) {
      const res = await fetch(`${base}/big`, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding')).toBe(expected);
      const wire = Number(res.headers.get('content-length'));
      const html = await res.text(); // fetch decodes what it was sent
      expect(html).toBe(BIG_HTML);
      if (expected) expect(wire).toBeLessThan(Buffer.byteLength(BIG_HTML) / 4);
      else expect(wire).toBe(Buffer.byteLength(BIG_HTML));
      expect(scriptSrc(res)).toEqual(["'self'", sha('b()')]);
    }
  });

  it('a page that arrives encoded cannot be hashed: it is sent as it came, and its CSP runs no inline script', async () => {
    const res = await fetch(`${base}/gzip`);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe(HTML);
    expect(scriptSrc(res)).toEqual(["'self'"]);
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
