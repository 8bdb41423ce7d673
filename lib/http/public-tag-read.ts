import type { z } from 'zod';
import type { Db } from '@/lib/db/client';
import type { AtSlot } from '@/lib/db/indexed-slot';
import { parseTagParam, tagNotFound } from '@/lib/features/identity/get-identity';
import { publicReadAtSlot } from './conditional';
import { indexedSlotHeaders } from './indexed-slot';
import { tagReadDocs } from './docs';
import type { Services } from './services';

/**
 * A public read of one tag (identity, resolve, signals, transfer), its docs and its handler
 * together: the `{tag}` path parsed here (400 malformed) and If-None-Match, one 404 for a missing
 * and a blocked tag, and the answer of `read` (given the canonical tag) at the slot it reflects,
 * with its ETag or a 304 (http/conditional.ts). The 404 carries the slot too.
 */
export function publicTagRead<T>(
  answer: string,
  schema: z.ZodType<T>,
  read: (db: Db, tag: string) => Promise<AtSlot<T | null>>,
) {
  return {
    ...tagReadDocs(answer, schema),
    params: ({ tag }: Record<string, string>) => ({ tag: parseTagParam(tag!) }),
    handler: async (req: Request, { params: { tag }, services: { db } }: TagReadContext) => {
      const { value, indexedSlot } = await read(db, tag!);
      if (value === null) throw tagNotFound().withHeaders(indexedSlotHeaders(indexedSlot));
      return publicReadAtSlot(req, { value, indexedSlot });
    },
  };
}

interface TagReadContext {
  params: Record<string, string>;
  services: Services;
}
