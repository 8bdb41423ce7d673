import type { z } from 'zod';
import { AppError } from '@/lib/errors';

/** Validates a parsed body against its schema; 400 naming the first offending field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? `\`${issue.path.join('.')}\`: ` : '';
  throw new AppError('invalid_request', `${where}${issue.message}`);
}
