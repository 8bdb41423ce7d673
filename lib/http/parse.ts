import type { z } from 'zod';
import { AppError } from '@/lib/core/errors';

/**
 * Validates a value against its schema; 400 naming the first offending field. `skipPath`
 * leaves that many leading segments out of the name: a server action's arguments are a tuple,
 * and the person reading the error wants the field, not its argument's index.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  { skipPath = 0 }: { skipPath?: number } = {},
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.slice(skipPath);
  const where = path.length ? `\`${path.join('.')}\`: ` : '';
  throw new AppError('invalid_request', `${where}${issue.message}`);
}

/**
 * A request's query parameters as one value each; 400 when a name repeats. With URLSearchParams
 * the last value wins where a link shows the first (`?amount=1&amount=1000` would pay 1,000),
 * so a repeated name is refused rather than picked.
 */
export function queryOf(req: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(req.url).searchParams) {
    if (Object.hasOwn(query, name)) throw repeatedParameter(name);
    query[name] = value;
  }
  return query;
}

/** One query parameter given at most once (400 otherwise, as queryOf), or undefined: for a route whose other parameters may repeat. */
export function singleQueryParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw repeatedParameter(name);
  return values[0];
}

function repeatedParameter(name: string): AppError {
  return new AppError('invalid_request', `\`${name}\`: is given more than once; give it once`);
}
