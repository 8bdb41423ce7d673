/**
 * Reader for the one kind of file the linker consumes: a little-endian ELF64 relocatable
 * object (`ET_REL`) as clang emits it for the BPF target. Only the parts the linker needs:
 * section headers, the symbol table and REL relocations.
 */

export const ET_REL = 1;
export const ET_DYN = 3;
export const EM_BPF = 247;

export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_DYNAMIC = 6;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;

export const SHF_WRITE = 0x1;
export const SHF_ALLOC = 0x2;
export const SHF_EXECINSTR = 0x4;

export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;
export const STT_NOTYPE = 0;
export const STT_OBJECT = 1;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const SHN_UNDEF = 0;
export const SHN_ABS = 0xfff1;

/** BPF relocation types (LLVM's numbering). */
export const R_BPF_64_64 = 1;
export const R_BPF_64_ABS64 = 2;
export const R_BPF_64_ABS32 = 3;
export const R_BPF_64_NODYLD32 = 4;
export const R_BPF_64_RELATIVE = 8;
export const R_BPF_64_32 = 10;

export interface ElfSection {
  index: number;
  name: string;
  type: number;
  flags: bigint;
  offset: number;
  size: number;
  link: number;
  info: number;
  addralign: number;
  entsize: number;
  /** The section's bytes (empty for SHT_NOBITS). */
  data: Uint8Array;
}

export interface ElfSymbol {
  index: number;
  name: string;
  bind: number;
  type: number;
  /** Section index, or SHN_UNDEF / SHN_ABS. */
  shndx: number;
  value: bigint;
  size: bigint;
}

export interface ElfRelocation {
  /** Offset inside the section the relocations apply to. */
  offset: number;
  type: number;
  symbol: ElfSymbol;
}

export interface ElfObject {
  sections: ElfSection[];
  symbols: ElfSymbol[];
  /** Keyed by the index of the section the relocations patch. */
  relocations: Map<number, ElfRelocation[]>;
}

export class ElfFormatError extends Error {
  override name = 'ElfFormatError';
}

function cString(bytes: Uint8Array, offset: number): string {
  let end = offset;
  while (end < bytes.length && bytes[end] !== 0) end++;
  if (end >= bytes.length) throw new ElfFormatError(`unterminated string at ${offset}`);
  return new TextDecoder().decode(bytes.subarray(offset, end));
}

function checkRange(file: Uint8Array, offset: number, size: number, what: string): void {
  if (offset < 0 || size < 0 || offset + size > file.length) {
    throw new ElfFormatError(`${what} lies outside the file`);
  }
}

/** Parses a BPF relocatable object; throws ElfFormatError on anything else. */
export function readRelocatableObject(file: Uint8Array): ElfObject {
  checkRange(file, 0, 64, 'ELF header');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (view.getUint32(0, false) !== 0x7f454c46) throw new ElfFormatError('not an ELF file');
  if (file[4] !== 2 || file[5] !== 1) throw new ElfFormatError('not ELF64 little-endian');
  if (view.getUint16(16, true) !== ET_REL) throw new ElfFormatError('not a relocatable object');
  if (view.getUint16(18, true) !== EM_BPF) throw new ElfFormatError('not a BPF object');

  const shoff = Number(view.getBigUint64(40, true));
  const shentsize = view.getUint16(58, true);
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  if (shentsize !== 64) throw new ElfFormatError('unexpected section header size');
  checkRange(file, shoff, shnum * 64, 'section header table');

  const raw = Array.from({ length: shnum }, (_, index) => {
    const at = shoff + index * 64;
    const type = view.getUint32(at + 4, true);
    const offset = Number(view.getBigUint64(at + 24, true));
    const size = Number(view.getBigUint64(at + 32, true));
    if (type !== SHT_NOBITS && type !== SHT_NULL) checkRange(file, offset, size, `section ${index}`);
    return {
      index,
      nameOffset: view.getUint32(at, true),
      type,
      flags: view.getBigUint64(at + 8, true),
      offset,
      size,
      link: view.getUint32(at + 40, true),
      info: view.getUint32(at + 44, true),
      addralign: Number(view.getBigUint64(at + 48, true)),
      entsize: Number(view.getBigUint64(at + 56, true)),
      data: type === SHT_NOBITS || type === SHT_NULL ? new Uint8Array(0) : file.subarray(offset, offset + size),
    };
  });
  const shstrtab = raw[shstrndx]?.data;
  if (!shstrtab) throw new ElfFormatError('missing section name table');
  const sections: ElfSection[] = raw.map(({ nameOffset, ...s }) => ({ ...s, name: cString(shstrtab, nameOffset) }));

  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  const symbols: ElfSymbol[] = [];
  if (symtab) {
    const strtab = sections[symtab.link]?.data;
    if (!strtab) throw new ElfFormatError('symbol table without string table');
    const sv = new DataView(symtab.data.buffer, symtab.data.byteOffset, symtab.data.byteLength);
    for (let index = 0; index * 24 < symtab.size; index++) {
      const at = index * 24;
      const info = sv.getUint8(at + 4);
      const shndx = sv.getUint16(at + 6, true);
      const type = info & 0xf;
      let name = cString(strtab, sv.getUint32(at, true));
      if (type === STT_SECTION && name === '') name = sections[shndx]?.name ?? '';
      symbols.push({
        index,
        name,
        bind: info >> 4,
        type,
        shndx,
        value: sv.getBigUint64(at + 8, true),
        size: sv.getBigUint64(at + 16, true),
      });
    }
  }

  const relocations = new Map<number, ElfRelocation[]>();
  for (const section of sections) {
    if (section.type === SHT_RELA) throw new ElfFormatError(`unsupported RELA section ${section.name}`);
    if (section.type !== SHT_REL) continue;
    const target = sections[section.info];
    if (!target) throw new ElfFormatError(`${section.name} patches a missing section`);
    const rv = new DataView(section.data.buffer, section.data.byteOffset, section.data.byteLength);
    const list: ElfRelocation[] = [];
    for (let at = 0; at + 16 <= section.size; at += 16) {
      const info = rv.getBigUint64(at + 8, true);
      const symbol = symbols[Number(info >> 32n)];
      if (!symbol) throw new ElfFormatError(`relocation in ${section.name} names a missing symbol`);
      list.push({ offset: Number(rv.getBigUint64(at, true)), type: Number(info & 0xffffffffn), symbol });
    }
    relocations.set(target.index, list);
  }
  return { sections, symbols, relocations };
}
