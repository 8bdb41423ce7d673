import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { rename, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChainMeta } from './chain';

const FILE_NAME = 'localnet.bin';
const MAGIC = Buffer.from('ITSLNET1');
const FORMAT_VERSION = 1;

export interface ChainSnapshot {
  meta: ChainMeta;
  svmBytes: Uint8Array;
}

/**
 * One file holds the chain's history and LiteSVM's snapshot together, so a crash between
 * two writes can never pair a history with another state: MAGIC ‖ u32 header length ‖
 * header JSON ‖ LiteSVM bytes. Written to a temp file, then renamed over the old one.
 */
function encode(snapshot: ChainSnapshot): Buffer {
  const header = Buffer.from(JSON.stringify({ formatVersion: FORMAT_VERSION, meta: snapshot.meta }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([MAGIC, length, header, snapshot.svmBytes]);
}

function decode(bytes: Buffer, path: string): ChainSnapshot {
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new Error(`${path} is not a localnet state file`);
  }
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const headerStart = MAGIC.length + 4;
  const header = JSON.parse(bytes.subarray(headerStart, headerStart + headerLength).toString('utf8')) as {
    formatVersion: number;
    meta: ChainMeta;
  };
  if (header.formatVersion !== FORMAT_VERSION) throw new Error(`${path}: unsupported format ${header.formatVersion}`);
  return { meta: header.meta, svmBytes: new Uint8Array(bytes.subarray(headerStart + headerLength)) };
}

export function loadSnapshot(dataDir: string): ChainSnapshot | null {
  const path = join(dataDir, FILE_NAME);
  if (!existsSync(path)) return null;
  return decode(readFileSync(path), path);
}

/** Debounced, serialized, atomic writes of the chain state; `flush()` writes synchronously. */
export class SnapshotWriter {
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt: number | null = null;
  private writing: Promise<void> = Promise.resolve();
  private sequence = 0;

  constructor(
    private readonly dataDir: string,
    private readonly take: () => ChainSnapshot,
    private readonly debounceMs = 200,
    private readonly maxDelayMs = 2000,
  ) {
    mkdirSync(dataDir, { recursive: true });
  }

  /** Schedules a write; bursts collapse into one, but never wait longer than maxDelayMs. */
  schedule(): void {
    const now = Date.now();
    this.firstPendingAt ??= now;
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstPendingAt + this.maxDelayMs - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.firstPendingAt = null;
      const bytes = encode(this.take());
      this.writing = this.writing
        .then(() => this.writeAsync(bytes))
        .catch((e: unknown) => {
          console.error('localnet: could not save state:', e);
        });
    }, wait);
    this.timer.unref();
  }

  private async writeAsync(bytes: Buffer): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const path = join(this.dataDir, FILE_NAME);
    const tmp = `${path}.${process.pid}.${++this.sequence}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }

  /** Cancels any pending write, waits for one in progress, and writes the state now. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.firstPendingAt = null;
    await this.writing;
    const path = join(this.dataDir, FILE_NAME);
    const tmp = `${path}.${process.pid}.final.tmp`;
    mkdirSync(this.dataDir, { recursive: true });
    writeFileSync(tmp, encode(this.take()));
    renameSync(tmp, path);
  }
}
