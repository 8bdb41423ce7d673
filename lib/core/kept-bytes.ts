/**
 * Values kept by key within a budget of bytes, the least recently used forgotten first, each
 * until its own time; and a value being made is made once, however many ask at the same time.
 * For answers that never change under their key (a full feed page, a share image of one
 * profile version): nothing has to expire them, the bound is only memory.
 */
export class KeptBytes<V> {
  private readonly kept = new Map<string, { value: V; until: number }>();
  private readonly making = new Map<string, Promise<V>>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The value kept under `key`, unless its time has passed. */
  get(key: string, now: number): V | undefined {
    const entry = this.kept.get(key);
    if (!entry) return undefined;
    this.kept.delete(key);
    if (entry.until < now) {
      this.bytes -= this.sizeOf(entry.value);
      return undefined;
    }
    this.kept.set(key, entry); // most recently used last
    return entry.value;
  }

  /** Keeps `value` until `until` (epoch ms); forgets the least recently used past the budget. */
  set(key: string, value: V, until = Number.POSITIVE_INFINITY): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes || this.kept.has(key)) return;
    this.kept.set(key, { value, until });
    this.bytes += size;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= this.sizeOf(entry.value);
    }
  }

  /** The kept value, else the one being made under `key`, else `make()` (which may keep what it made). */
  async getOrMake(key: string, now: number, make: () => Promise<V>): Promise<V> {
    const kept = this.get(key, now);
    if (kept !== undefined) return kept;
    const making = this.making.get(key);
    if (making) return making;
    const made = make();
    this.making.set(key, made);
    try {
      return await made;
    } finally {
      this.making.delete(key);
    }
  }
}
