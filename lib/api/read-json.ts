import { AppError } from './errors';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * Reads a JSON request body of at most `maxBytes` (413 beyond, counted while streaming so a
 * huge body is never buffered whole), strictly UTF-8 (400 otherwise), parsed (400 otherwise).
 */
export async function readJson(req: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) throw new AppError('invalid_request', 'The request body must be JSON.');
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
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError('invalid_request', 'The request body must be UTF-8 JSON.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'The request body must be JSON.');
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The request body must be at most ${maxBytes} bytes.`);
}
