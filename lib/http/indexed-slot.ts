import { toAppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { readIndexedSlot } from '@/lib/db/indexed-slot';

/*
 * Freshness of public reads on the wire (docs/integrators.md, "Freshness: X-Indexed-Slot"): the
 * slot a read reflects (lib/db/indexed-slot.ts) goes out as this header, on answers and on their
 * errors alike. Only the HTTP ring writes it.
 */

export const INDEXED_SLOT_HEADER = 'X-Indexed-Slot';

export function indexedSlotHeaders(slot: string): Record<string, string> {
  return { [INDEXED_SLOT_HEADER]: slot };
}

/**
 * A public read whose statement does not carry the slot: reads it first, then answers with
 * it, errors included.
 */
export async function atIndexedSlot(db: Db, read: () => Promise<Response>): Promise<Response> {
  const slot = await readIndexedSlot(db);
  let response: Response;
  try {
    response = await read();
  } catch (err) {
    throw toAppError(err).withHeaders(indexedSlotHeaders(slot));
  }
  response.headers.set(INDEXED_SLOT_HEADER, slot);
  return response;
}
