import net from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { proxy } from '@/proxy';
import { nonCanonicalTarget } from '@/lib/http/request-target';
import { closeTestDb, seedIdentity } from '../identity/helpers';

/*
 * One door for every request (issue 42 item 1): a target with a dot segment (plain or
 * percent-encoded), an encoded slash or a fragment gets 400 before routing, so no request reaches
 * a route by a path the door reads differently (lib/http/request-target.ts). Raw HTTP on a
 * socket: fetch (WHATWG URL) would resolve the dots and drop the fragment before sending.
 */

const appUrl = new URL(inject('appUrl'));
afterAll(closeTestDb);

/** Sends `GET target` as written; the status and the parsed body. */
function rawGet(target: string): Promise<{ status: number; body: unknown; headers: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(appUrl.port), appUrl.hostname, () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: ${appUrl.host}\r\nX-Forwarded-For: 10.42.0.1\r\nConnection: close\r\n\r\n`,
      ),
    );
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const status = Number(head!.split(' ')[1]);
      const text = rest.join('\r\n\r\n');
      // A chunked body: its one JSON object is between the first size line and the last chunk.
      const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
      resolve({ status, body: json ? JSON.parse(json) : undefined, headers: head! });
    });
  });
}

const refused = (message: string) => ({ error: { code: 'invalid_request', message } });
const DOTS = 'The path has a dot segment (`.` or `..`, plain or percent-encoded): send the path it stands for.';
const FRAGMENT = 'The request target has a fragment (`#`): send the path without it.';
const SLASH = 'The path has an encoded slash or a backslash (`%2F`, `%5C`, `\\`): a segment cannot contain one.';

describe('the door under npm start, raw HTTP', () => {
  it.each([
    ['/v1/./events', DOTS],
    ['/v1/x/../events', DOTS],
    ['/v1/%2e/events', DOTS],
    ['/v1/%2E%2e/v1/events', DOTS],
    ['/v1/events/.', DOTS],
    ['/v1/events#f', FRAGMENT],
    ['/v1/./reverse/11111111111111111111111111111111', DOTS],
    ['/profile/./alice/opengraph-image', DOTS],
    ['/v1/resolve%2Falice', SLASH],
    ['/v1%5cevents', SLASH],
    ['/v1\\events', SLASH],
  ])('GET %s: 400 in the envelope', async (target, message) => {
    const res = await rawGet(target);
    expect([res.status, res.body]).toEqual([400, refused(message)]);
  });

  it('the feed itself, and a dot inside a segment or in the query: served', async () => {
    expect((await rawGet('/v1/events')).status).toBe(200);
    expect((await rawGet('/v1/events?after=0-0&limit=1')).status).toBe(200);
    const row = await seedIdentity();
    expect((await rawGet(`/v1/identity/${row.tag.replace(/^@/, '')}?x=./..`)).status).toBe(200);
    expect((await rawGet('/v1/identity/a.b')).status).toBe(400); // a malformed tag, judged by the route
  });
});

describe('nonCanonicalTarget', () => {
  it('reads only the path for dots and slashes, and the whole target for a fragment', () => {
    expect(nonCanonicalTarget('/v1/events?cursor=../x&u=a%2Fb')).toBeNull();
    expect(nonCanonicalTarget('/a/.well-known/x')).toBeNull();
    expect(nonCanonicalTarget('/v1/events?x=1#y')).toBe(FRAGMENT);
    expect(nonCanonicalTarget('/..')).toBe(DOTS);
    expect(nonCanonicalTarget('/v1/%2E')).toBe(DOTS);
  });
});

describe('proxy.ts under a bare next start', () => {
  it('refuses an encoded slash or backslash in what Next.js hands it, in the envelope', async () => {
    for (const path of ['/v1/resolve%2Falice', '/v1/a%5Cb', '/@alice%2fx']) {
      const res = (await proxy(new NextRequest(`http://localhost${path}`)))!;
      expect([res.status, await res.json()], path).toEqual([400, refused(SLASH)]);
    }
    expect(await proxy(new NextRequest('http://localhost/v1/events'))).toBeUndefined();
  });
});
