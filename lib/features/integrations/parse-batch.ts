import type { z } from 'zod';
import { AppError, type ErrorCode } from '@/lib/core/errors';

const SHOWN_CHARS = 64;

/**
 * Validates a batch body against its schema; the 400 names the offending entry by position
 * and by value (`tags[3] "a-b": must be a tag: …`), so a client with a hundred entries sees
 * which one to fix. A malformed entry gets `entryCode`, anything else `invalid_request`.
 */
export function parseBatch<S extends z.ZodType>(
  schema: S,
  value: unknown,
  entryCode: ErrorCode = 'invalid_request',
): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const [key, index] = issue.path;
  if (typeof key === 'string' && typeof index === 'number' && issue.path.length === 2) {
    throw new AppError(entryCode, `\`${key}[${index}]\` ${shown(issue.input)}: ${issue.message}`);
  }
  const where = issue.path.length ? `\`${issue.path.join('.')}\`: ` : '';
  throw new AppError('invalid_request', `${where}${issue.message}`);
}

function shown(input: unknown): string {
  if (typeof input !== 'string') return `(${input === null ? 'null' : typeof input})`;
  return JSON.stringify(input.length > SHOWN_CHARS ? `${input.slice(0, SHOWN_CHARS)}…` : input);
}
