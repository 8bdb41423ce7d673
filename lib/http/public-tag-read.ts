import type { z } from 'zod';
import type { Db } from '@/lib/db/client';
import type { AtSlot } from '@/lib/features/identity/get-identity';
import { publicReadAtSlot } from './conditional';
import { tagReadDocs } from './docs';
import type { Services } from './services';

/**
 * A public read of one tag (identity, resolve, signals, transfer), its docs and its handler
 * together: the `{tag}` path and If-None-Match, one 404 for a missing and a blocked tag, and the
 * answer of `read` at the slot it reflects, with its ETag or a 304 (http/conditional.ts).
 */
export function publicTagRead<T>(
  answer: string,
  schema: z.ZodType<T>,
  read: (db: Db, tag: string) => Promise<AtSlot<T>>,
) {
  return {
    ...tagReadDocs(answer, schema),
    handler: async (req: Request, { params: { tag }, services: { db } }: TagReadContext) =>
      publicReadAtSlot(req, await read(db, tag)),
  };
}

interface TagReadContext {
  params: Record<string, string>;
  services: Services;
}
