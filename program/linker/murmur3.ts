/**
 * MurmurHash3, x86 32-bit variant, over raw bytes. SBPF v3 calls a syscall by
 * `call imm` with imm = murmur3_32(name, seed 0); the runtime registers its syscalls under
 * the same hash (check value: `sol_log_` = 0x207559BD).
 */
const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

const rotl32 = (x: number, r: number) => ((x << r) | (x >>> (32 - r))) >>> 0;

function mixBlock(k: number): number {
  k = Math.imul(k, C1);
  k = rotl32(k, 15);
  return Math.imul(k, C2);
}

export function murmur3_32(bytes: Uint8Array, seed = 0): number {
  let h = seed >>> 0;
  const blocks = bytes.length >>> 2;
  for (let i = 0; i < blocks; i++) {
    const at = i * 4;
    const k = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
    h ^= mixBlock(k);
    h = rotl32(h, 13);
    h = (Math.imul(h, 5) + 0xe6546b64) >>> 0;
  }
  let tail = 0;
  const rest = blocks * 4;
  switch (bytes.length & 3) {
    case 3:
      tail ^= bytes[rest + 2] << 16; // falls through
    case 2:
      tail ^= bytes[rest + 1] << 8; // falls through
    case 1:
      tail ^= bytes[rest];
      h ^= mixBlock(tail);
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The `call` immediate of a syscall in SBPF v3. */
export const syscallHash = (name: string): number => murmur3_32(new TextEncoder().encode(name));
