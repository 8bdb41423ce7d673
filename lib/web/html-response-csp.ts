import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import { pageSecurityHeaders, type SecurityPolicyInput } from './security-headers';

/**
 * The encodings a page is sent in, in the order scripts/serve.ts's `compression` middleware
 * prefers them for every other answer. The size threshold and brotli options below are the
 * ones serve.ts hands that middleware: a page and an asset are compressed alike, the page
 * only once.
 */
type PageEncoding = 'br' | 'gzip' | 'identity';
const PAGE_ENCODINGS: PageEncoding[] = ['br', 'gzip', 'identity'];
const PREFERRED_ENCODINGS: PageEncoding[] = ['br', 'gzip'];
export const COMPRESSION_THRESHOLD_BYTES = 1024;
export const BROTLI_OPTIONS = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Gives every HTML answer of a Node.js response its page CSP (lib/web/security-headers.ts),
 * computed from the HTML actually sent, and sends it compressed as the request accepts: the
 * answer is held until it ends (HTML only; anything else passes through untouched), its inline
 * scripts hashed, the headers set, then the body sent in one piece. Both are remembered per
 * distinct page (below), so a page served from Next's cache is hashed and compressed once.
 * scripts/serve.ts wraps every page request of `npm start` with it, inside its `compression`
 * middleware, which leaves an answer that already has a Content-Encoding as it is.
 */
export function withPageCsp(req: IncomingMessage, res: ServerResponse, policy: SecurityPolicyInput): void {
  const original = { write: res.write.bind(res), end: res.end.bind(res), writeHead: res.writeHead.bind(res), flushHeaders: res.flushHeaders.bind(res) };
  let mode: 'undecided' | 'html' | 'pass' = 'undecided';
  let head: { status: number; reason?: string } | null = null;
  const chunks: Buffer[] = [];

  // The wrappers stay in place once decided (Next.js may hold them already): past the
  // decision they only pass calls on.
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
    let sent: Buffer = body;
    try {
      // next.config.ts turns Next.js's own compression off: what arrives here is the HTML itself.
      if (res.hasHeader('content-encoding')) throw new Error(`the page arrived encoded (${String(res.getHeader('content-encoding'))})`);
      const entry = pageEntry(body, policy);
      for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
      const encoding = pageEncoding(req, res, body);
      sent = encodedBody(entry, body, encoding);
      if (encoding !== 'identity') res.setHeader('content-encoding', encoding);
      res.setHeader('content-length', sent.length);
    } catch (err) {
      // Fail closed: a page whose scripts cannot be hashed gets a policy that runs none of them.
      console.error('page CSP: cannot read the HTML to hash its scripts:', err);
      for (const [name, value] of Object.entries(pageSecurityHeaders('', policy))) res.setHeader(name, value);
    }
    if (head) original.writeHead(head.status, head.reason);
    const done = [chunk, encoding, callback].find((a) => typeof a === 'function') as (() => void) | undefined;
    return original.end(sent, done);
  }) as ServerResponse['end'];
}

/*
 * A cached page is the same bytes request after request, so what is made from its bytes is made
 * once: the entry remembered by the SHA-256 of the HTML holds its security headers and each
 * compressed form asked for so far. Hashing the body (a few microseconds) stands in for hashing
 * each script and compressing the page again on every view. A page that changes (revalidated,
 * re-rendered) is new bytes, a new entry.
 */
const MEMO_ENTRIES = 256;

interface PageEntry {
  headers: Readonly<Record<string, string>>;
  encoded: Map<PageEncoding, Buffer>;
}

// A process serves under one policy (scripts/serve.ts's, proxy.ts's): the memo is that policy's,
// started afresh should another one come.
let memo: { policy: SecurityPolicyInput; entries: Map<string, PageEntry> } | undefined;

function pageEntry(html: Buffer, policy: SecurityPolicyInput): PageEntry {
  if (memo?.policy !== policy) memo = { policy, entries: new Map() };
  const { entries } = memo;
  const key = createHash('sha256').update(html).digest('base64');
  const known = entries.get(key);
  if (known) return known;
  const entry: PageEntry = { headers: Object.freeze(pageSecurityHeaders(html.toString('utf8'), policy)), encoded: new Map() };
  // The oldest entry goes first (a Map keeps insertion order): enough for every hot page.
  if (entries.size >= MEMO_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, entry);
  return entry;
}

/** The page security headers of an HTML body (uncompressed), remembered by its hash. Used here and by proxy.ts. */
export function headersOfBody(html: Buffer, policy: SecurityPolicyInput): Readonly<Record<string, string>> {
  return pageEntry(html, policy).headers;
}

/** What the request accepts, as the `compression` middleware would choose it; small and no-transform pages as they are. */
function pageEncoding(req: IncomingMessage, res: ServerResponse, html: Buffer): PageEncoding {
  if (html.length < COMPRESSION_THRESHOLD_BYTES) return 'identity';
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader('cache-control') ?? ''))) return 'identity';
  return (negotiator(req).encoding(PAGE_ENCODINGS, PREFERRED_ENCODINGS) as PageEncoding | undefined) ?? 'identity';
}

/** negotiator 0.6.4 takes a preferred order as `encoding`'s second argument (as `compression` calls it); its types predate that. */
const negotiator = (req: IncomingMessage) => new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };

function encodedBody(entry: PageEntry, html: Buffer, encoding: PageEncoding): Buffer {
  if (encoding === 'identity') return html;
  let body = entry.encoded.get(encoding);
  if (!body) {
    body = encoding === 'br' ? brotliCompressSync(html, BROTLI_OPTIONS) : gzipSync(html);
    entry.encoded.set(encoding, body);
  }
  return body;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}
