import { randomBytes } from 'node:crypto';

/*
 * A new request's id: a random UUID (version 4), as crypto.randomUUID makes one, from entropy
 * drawn IDS_PER_DRAW ids at a time (as Node's own randomUUID draws it). Not crypto.randomUUID
 * itself: Next.js wraps node:crypto's random functions (to find prerenders that read
 * randomness), and that wrapper, run on every request, cost about 2 µs of the ~50 that
 * observing costs a request in place (a CPU profile, README "Benchmarks"); drawn this way it
 * runs once per IDS_PER_DRAW requests.
 */

const IDS_PER_DRAW = 128;
const BYTES_PER_ID = 16;

let entropy = Buffer.alloc(0);
let next = 0;

/** A new random version 4 UUID, lower-case hex: `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`. */
export function newRequestId(): string {
  if (next + BYTES_PER_ID > entropy.length) {
    entropy = randomBytes(IDS_PER_DRAW * BYTES_PER_ID);
    next = 0;
  }
  const at = next;
  next += BYTES_PER_ID;
  entropy[at + 6] = (entropy[at + 6]! & 0x0f) | 0x40; // version 4
  entropy[at + 8] = (entropy[at + 8]! & 0x3f) | 0x80; // variant 10
  const hex = entropy.toString('hex', at, at + BYTES_PER_ID);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
