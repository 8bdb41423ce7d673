import type { z } from 'zod';
import { AppError } from '@/lib/core/errors';

/**
 * Validates a value against its schema; 400 naming the first offending field. `skipPath`
 * leaves that many leading segments out of the name: a server action's arguments are a tuple,
 * and the person reading the error wants the field, not its argument's index.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, { skipPath = 0 }: { skipPath?: number } = {}): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.slice(skipPath);
  const where = path.length ? `\`${path.join('.')}\`: ` : '';
  throw new AppError('invalid_request', `${where}${issue.message}`);
}
