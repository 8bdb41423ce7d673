import { AppError } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';

const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * Reads a JSON request body: `Content-Type: application/json` only (415 otherwise, before
 * the body is read; a charset, if given, must be UTF-8), at most `maxBytes` (413), strictly
 * UTF-8 (400 otherwise), parsed (400 otherwise). With `optional` (POST …/transfer/accept takes
 * none), no body or an empty one reads as `{}`; a body that is sent must still be JSON.
 */
export async function readJson(
  req: Request,
  { maxBytes = DEFAULT_MAX_BODY_BYTES, optional = false } = {},
): Promise<unknown> {
  const contentType = req.headers.get('content-type');
  if (!optional) requireJsonContentType(contentType);
  const text = await readText(req, maxBytes);
  if (optional && !text?.trim()) return {};
  requireJsonContentType(contentType);
  if (!text) throw new AppError('invalid_request', 'The request body must be JSON.');
  return parseJson(text);
}

/**
 * A request body of at most `maxBytes`, read before anything else looks at it: a declared
 * Content-Length over the limit is refused before a byte is read, and a body sent without
 * one (chunked) is counted while streaming and dropped at the first byte over, so a huge body
 * is never buffered whole (413 either way).
 */
export async function readBody(req: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await readFromClient(reader);
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/**
 * The next chunk of a request body. The stream comes from the client's connection alone, so
 * a failure here is the client hanging up mid-body (Node's `aborted`): logged as that, and
 * answered 400 (to nobody, usually), never taken for a database outage.
 */
async function readFromClient(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (err) {
    logger.warn({ err }, 'client hung up mid-body');
    throw new AppError('invalid_request', 'The request body ended before it was complete.');
  }
}

/** The body as UTF-8 text (null without a body), at most `maxBytes`. */
async function readText(req: Request, maxBytes: number): Promise<string | null> {
  if (!req.body) return null;
  const bytes = await readBody(req, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('invalid_request', 'The request body must be UTF-8 JSON.');
  }
}

function requireJsonContentType(header: string | null): void {
  const [type, ...params] = (header ?? '').split(';').map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (type === 'application/json' && (charset === undefined || charset === 'utf-8')) return;
  throw new AppError('unsupported_media_type', 'The request body must be sent as `Content-Type: application/json`.');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'The request body must be JSON.');
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The request body must be at most ${maxBytes} bytes.`);
}
