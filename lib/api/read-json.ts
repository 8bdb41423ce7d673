import { AppError } from './errors';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * Reads a JSON request body of at most `maxBytes` (413 beyond, counted while streaming so a
 * huge body is never buffered whole), strictly UTF-8 (400 otherwise), parsed (400 otherwise).
 */
export async function readJson(req: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, maxBytes);
  if (text === null) throw new AppError('invalid_request', 'The request body must be JSON.');
  return parseJson(text);
}

/**
 * As readJson for a body that may be left out (POST …/transfer/accept takes none): no body, or
 * an empty one, is `undefined`; anything else must be JSON as readJson requires.
 */
export async function readOptionalJson(req: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, maxBytes);
  return text === null || text.trim() === '' ? undefined : parseJson(text);
}

/** The body as UTF-8 text (null without a body), at most `maxBytes`. */
async function readText(req: Request, maxBytes: number): Promise<string | null> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return null;
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError('invalid_request', 'The request body must be UTF-8 JSON.');
  }
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
