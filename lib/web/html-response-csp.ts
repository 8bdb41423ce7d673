import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { pageSecurityHeaders, type SecurityPolicyInput } from './security-headers';

/**
 * Gives every HTML answer of a Node.js response its page CSP (lib/web/security-headers.ts),
 * computed from the HTML actually sent: the answer is held until it ends (HTML only; anything
 * else passes through untouched), its inline scripts hashed, the headers set, then the body
 * sent as it was (still compressed if Next.js compressed it). scripts/serve.ts wraps every
 * request of `npm start` with it.
 */
export function withPageCsp(res: ServerResponse, policy: SecurityPolicyInput): void {
  const original = { write: res.write.bind(res), end: res.end.bind(res), writeHead: res.writeHead.bind(res), flushHeaders: res.flushHeaders.bind(res) };
  let mode: 'undecided' | 'html' | 'pass' = 'undecided';
  let head: { status: number; reason?: string } | null = null;
  const chunks: Buffer[] = [];

  // The wrappers stay in place once decided (Next.js's compression wraps them in turn, so
  // putting the originals back would bypass it): past the decision they only pass calls on.
  const decide = () => {
    if (mode !== 'undecided') return;
    mode = String(res.getHeader('content-type') ?? '').toLowerCase().startsWith('text/html') ? 'html' : 'pass';
    if (mode === 'pass' && head) original.writeHead(head.status, head.reason);
  };

  res.writeHead = ((status: number, reason?: string | OutgoingHttpHeaders | unknown[], headers?: OutgoingHttpHeaders | unknown[]) => {
    if (mode === 'pass') return original.writeHead(status, reason as never, headers as never);
    const extra = typeof reason === 'string' ? headers : reason;
    if (extra && !Array.isArray(extra)) for (const [name, value] of Object.entries(extra)) if (value !== undefined) res.setHeader(name, value);
    res.statusCode = status;
    head = { status, reason: typeof reason === 'string' ? reason : undefined };
    return res;
  }) as ServerResponse['writeHead'];
  res.flushHeaders = () => {
    if (mode === 'pass') original.flushHeaders();
  };
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    decide();
    if (mode === 'pass') return original.write(chunk as never, encoding as never, callback as never);
    chunks.push(toBuffer(chunk, encoding));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => done());
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    decide();
    if (mode === 'pass') return original.end(chunk as never, encoding as never, callback as never);
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    mode = 'pass';
    const body = Buffer.concat(chunks);
    // A 304 updates the headers the browser keeps with its copy: a CSP without the copy's
    // hashes would break it. A body-less answer (HEAD) has nothing to hash: left as it is.
    if (res.statusCode === 304 || body.length === 0) {
      if (head) original.writeHead(head.status, head.reason);
      return original.end(body, [chunk, encoding, callback].find((a) => typeof a === 'function') as (() => void) | undefined);
    }
    try {
      for (const [name, value] of Object.entries(headersOfBody(body, String(res.getHeader('content-encoding') ?? ''), policy))) res.setHeader(name, value);
    } catch (err) {
      // Fail closed: a page whose scripts cannot be hashed gets a policy that runs none of them.
      console.error('page CSP: cannot read the HTML to hash its scripts:', err);
      for (const [name, value] of Object.entries(pageSecurityHeaders('', policy))) res.setHeader(name, value);
    }
    if (head) original.writeHead(head.status, head.reason);
    const done = [chunk, encoding, callback].find((a) => typeof a === 'function') as (() => void) | undefined;
    return original.end(body, done);
  }) as ServerResponse['end'];
}

/*
 * A cached page is the same bytes request after request: its headers are remembered by the
 * SHA-256 of the bytes sent and their encoding, so hashing the body (a few microseconds) stands
 * in for decompressing it, reading the text and hashing each script again. Same bytes, same
 * scripts, same CSP: a page that changes (revalidated, re-rendered) is new bytes, a new key.
 */
const MEMO_ENTRIES = 256;
// A process serves under one policy (scripts/serve.ts's, proxy.ts's): the memo is that policy's,
// started afresh should another one come.
let memo: { policy: SecurityPolicyInput; entries: Map<string, Readonly<Record<string, string>>> } | undefined;

/**
 * The page security headers of an HTML body as sent (`encoding`: its Content-Encoding),
 * remembered by the body's hash. Used here and by proxy.ts.
 */
export function headersOfBody(body: Buffer, encoding: string, policy: SecurityPolicyInput): Readonly<Record<string, string>> {
  if (memo?.policy !== policy) memo = { policy, entries: new Map() };
  const { entries } = memo;
  const key = `${encoding}\0${createHash('sha256').update(body).digest('base64')}`;
  const known = entries.get(key);
  if (known) return known;
  const headers = Object.freeze(pageSecurityHeaders(decode(body, encoding).toString('utf8'), policy));
  // The oldest entry goes first (a Map keeps insertion order): enough for every hot page.
  if (entries.size >= MEMO_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, headers);
  return headers;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

function decode(body: Buffer, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case '':
    case 'identity':
      return body;
    case 'gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      throw new Error(`unknown content-encoding ${encoding}`);
  }
}
