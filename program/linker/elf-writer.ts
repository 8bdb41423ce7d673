/**
 * Writing the ELF64 little-endian structures the linker emits. Each one (file header,
 * program header, section header, symbol) is declared once, as its fields and their
 * widths in order, and written by one function: offsets and sizes come from that table, so
 * no header is spelled out field by field twice.
 */

export const PT_LOAD = 1;
export const PF_X = 1;
export const PF_R = 4;

type Width = 1 | 2 | 4 | 8;

export interface Layout<F extends string> {
  fields: ReadonlyArray<readonly [F, Width]>;
  /** Bytes the structure takes: the sum of its fields' widths. */
  size: number;
}

function layout<F extends string>(...fields: Array<readonly [F, Width]>): Layout<F> {
  return { fields, size: fields.reduce((sum, [, width]) => sum + width, 0) };
}

/** Elf64_Ehdr; `magic` to `padding` are e_ident (magic read as a little-endian u32). */
export const ELF_HEADER = layout(
  ['magic', 4],
  ['class', 1],
  ['data', 1],
  ['identVersion', 1],
  ['osabi', 1],
  ['padding', 8],
  ['type', 2],
  ['machine', 2],
  ['version', 4],
  ['entry', 8],
  ['phoff', 8],
  ['shoff', 8],
  ['flags', 4],
  ['ehsize', 2],
  ['phentsize', 2],
  ['phnum', 2],
  ['shentsize', 2],
  ['shnum', 2],
  ['shstrndx', 2],
);
/** "\x7fELF" as ELF_HEADER's `magic`, with ELFCLASS64, ELFDATA2LSB and EV_CURRENT after it. */
export const ELF64_LE_IDENT = { magic: 0x464c457f, class: 2, data: 1, identVersion: 1 } as const;

/** Elf64_Phdr. */
export const PROGRAM_HEADER = layout(
  ['type', 4],
  ['flags', 4],
  ['offset', 8],
  ['vaddr', 8],
  ['paddr', 8],
  ['filesz', 8],
  ['memsz', 8],
  ['align', 8],
);

/** Elf64_Shdr. */
export const SECTION_HEADER = layout(
  ['name', 4],
  ['type', 4],
  ['flags', 8],
  ['addr', 8],
  ['offset', 8],
  ['size', 8],
  ['link', 4],
  ['info', 4],
  ['addralign', 8],
  ['entsize', 8],
);

/** Elf64_Sym. */
export const SYMBOL = layout(['name', 4], ['info', 1], ['other', 1], ['shndx', 2], ['value', 8], ['size', 8]);

export type Fields<L> = L extends Layout<infer F> ? Partial<Record<F, number | bigint>> : never;

/** The output file: structures written by their layout, raw bytes placed as they are. */
export class ElfImage {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Writes `values` at `at` in the order of `structure`; a field left out stays zero. */
  write<F extends string>(at: number, structure: Layout<F>, values: Partial<Record<F, number | bigint>>): void {
    let offset = at;
    for (const [name, width] of structure.fields) {
      const value = values[name] ?? 0;
      if (width === 8) this.view.setBigUint64(offset, BigInt(value), true);
      else if (width === 4) this.view.setUint32(offset, Number(value) >>> 0, true);
      else if (width === 2) this.view.setUint16(offset, Number(value), true);
      else this.view.setUint8(offset, Number(value));
      offset += width;
    }
  }

  put(at: number, data: Uint8Array): void {
    this.bytes.set(data, at);
  }
}

/** String table builder: index 0 is the empty string; equal strings share an entry. */
export class StringTable {
  private readonly parts: Uint8Array[] = [new Uint8Array(1)];
  private readonly offsets = new Map<string, number>([['', 0]]);
  private size = 1;
  add(s: string): number {
    const known = this.offsets.get(s);
    if (known !== undefined) return known;
    const encoded = new TextEncoder().encode(`${s}\0`);
    const at = this.size;
    this.parts.push(encoded);
    this.offsets.set(s, at);
    this.size += encoded.length;
    return at;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
