/**
 * Our linker: turns clang's BPF relocatable object into a Solana SBPFv0 shared object
 * (upstream ld.lld has no BPF target). What the loader accepts is recorded in DESIGN.md
 * "The on-chain program"; the layout here is fixed so the output is byte-for-byte
 * reproducible:
 *
 *   ELF header | program headers | .text | .rodata | .dynamic | .dynsym | .dynstr
 *   | .rel.dyn | .shstrtab | section headers
 *
 * Every section's virtual address equals its file offset. `lddw` of read-only data gets
 * the data's address plus an R_BPF_64_RELATIVE relocation (the loader adds the program
 * base); a call to an undefined symbol is a syscall (imm -1, R_BPF_64_32 naming it); a
 * call to a function of the object becomes pc-relative.
 */
import {
  ElfFormatError,
  EM_BPF,
  ET_DYN,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_RELATIVE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHN_UNDEF,
  SHT_DYNAMIC,
  SHT_DYNSYM,
  SHT_NOBITS,
  SHT_PROGBITS,
  SHT_REL,
  SHT_STRTAB,
  STB_GLOBAL,
  STT_FUNC,
  STT_NOTYPE,
  STT_SECTION,
  readRelocatableObject,
  type ElfObject,
} from './elf-reader';

export class LinkError extends Error {
  override name = 'LinkError';
}

/** Syscalls the Solana runtime registers; any other undefined symbol is a link error. */
export const KNOWN_SYSCALLS: ReadonlySet<string> = new Set([
  'abort', 'sol_panic_', 'sol_log_', 'sol_log_64_', 'sol_log_compute_units_', 'sol_log_pubkey',
  'sol_log_data', 'sol_create_program_address', 'sol_try_find_program_address', 'sol_sha256',
  'sol_keccak256', 'sol_blake3', 'sol_secp256k1_recover', 'sol_invoke_signed_c',
  'sol_invoke_signed_rust', 'sol_get_clock_sysvar', 'sol_get_rent_sysvar',
  'sol_get_epoch_schedule_sysvar', 'sol_get_fees_sysvar', 'sol_get_epoch_rewards_sysvar',
  'sol_get_last_restart_slot', 'sol_get_sysvar', 'sol_memcpy_', 'sol_memmove_', 'sol_memset_',
  'sol_memcmp_', 'sol_set_return_data', 'sol_get_return_data', 'sol_get_stack_height',
  'sol_get_processed_sibling_instruction', 'sol_remaining_compute_units', 'sol_alloc_free_',
  'sol_curve_validate_point', 'sol_curve_group_op', 'sol_curve_multiscalar_mul', 'sol_poseidon',
  'sol_big_mod_exp', 'sol_alt_bn128_group_op', 'sol_alt_bn128_compression', 'sol_get_epoch_stake',
]);

export const ENTRYPOINT = 'entrypoint';

const EHDR_SIZE = 64;
const PHDR_SIZE = 56;
const SHDR_SIZE = 64;
const SYM_SIZE = 24;
const REL_SIZE = 16;
const DYN_SIZE = 16;
const INSN_SIZE = 8;
const PAGE = 0x1000;

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PF_X = 1;
const PF_R = 4;

const DT_NULL = 0;
const DT_STRTAB = 5;
const DT_SYMTAB = 6;
const DT_STRSZ = 10;
const DT_SYMENT = 11;
const DT_REL = 17;
const DT_RELSZ = 18;
const DT_RELENT = 19;
const DT_TEXTREL = 22;
const DT_FLAGS = 30;
const DT_RELCOUNT = 0x6ffffffa;
const DF_TEXTREL = 0x4;

const OPC_LDDW = 0x18;
const OPC_CALL = 0x85;

interface DynReloc {
  offset: number;
  type: number;
  /** Index into .dynsym (0 for RELATIVE). */
  symbol: number;
}

const align = (n: number, to: number) => Math.ceil(n / to) * to;

/** A byte buffer with little-endian writers at absolute offsets. */
class Out {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
  u8(at: number, v: number) { this.view.setUint8(at, v); }
  u16(at: number, v: number) { this.view.setUint16(at, v, true); }
  u32(at: number, v: number) { this.view.setUint32(at, v >>> 0, true); }
  u64(at: number, v: number | bigint) { this.view.setBigUint64(at, BigInt(v), true); }
  put(at: number, data: Uint8Array) { this.bytes.set(data, at); }
}

/** String table builder: index 0 is the empty string; equal strings share an entry. */
class StringTable {
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
    for (const p of this.parts) { out.set(p, at); at += p.length; }
    return out;
  }
}

function pickSections(obj: ElfObject) {
  const alloc = obj.sections.filter((s) => (s.flags & BigInt(SHF_ALLOC)) !== 0n && s.size > 0);
  const texts = alloc.filter((s) => (s.flags & BigInt(SHF_EXECINSTR)) !== 0n);
  if (texts.length !== 1 || texts[0].name !== '.text') {
    throw new LinkError(`expected exactly one executable section named .text, found ${texts.map((s) => s.name).join(', ') || 'none'} (compile without -ffunction-sections)`);
  }
  const writable = alloc.filter((s) => (s.flags & BigInt(SHF_WRITE)) !== 0n || s.type === SHT_NOBITS);
  if (writable.length > 0) {
    throw new LinkError(`writable globals are not allowed in SBPFv0: ${writable.map((s) => s.name).join(', ')}`);
  }
  const rodata = alloc.filter((s) => s !== texts[0]);
  for (const s of rodata) {
    if (!s.name.startsWith('.rodata')) throw new LinkError(`unsupported allocated section ${s.name}`);
    if (obj.relocations.get(s.index)?.length) {
      throw new LinkError(`read-only data must not hold addresses (relocations in ${s.name})`);
    }
  }
  return { text: texts[0], rodata };
}

/** Links a BPF relocatable object (clang -target bpf -c) into an SBPFv0 shared object. */
export function linkSbpf(objectFile: Uint8Array): Uint8Array {
  let obj: ElfObject;
  try {
    obj = readRelocatableObject(objectFile);
  } catch (e) {
    if (e instanceof ElfFormatError) throw new LinkError(`bad input object: ${e.message}`);
    throw e;
  }
  const { text, rodata } = pickSections(obj);

  const entry = obj.symbols.find((s) => s.name === ENTRYPOINT && s.type === STT_FUNC && s.shndx === text.index);
  if (!entry) throw new LinkError(`no function named ${ENTRYPOINT} in .text`);

  // Syscalls, in name order so the output does not depend on relocation order.
  const textRelocs = obj.relocations.get(text.index) ?? [];
  const syscalls = [...new Set(textRelocs.filter((r) => r.symbol.shndx === SHN_UNDEF).map((r) => r.symbol.name))].sort();
  for (const name of syscalls) {
    if (!KNOWN_SYSCALLS.has(name)) {
      throw new LinkError(`undefined symbol ${name} is not a Solana syscall (no libc here: write the loop, or use sol_memcpy_)`);
    }
  }

  // Layout. Three program headers: text, read-only (rodata + dynamic tables), dynamic.
  const textOff = align(EHDR_SIZE + 3 * PHDR_SIZE, INSN_SIZE);
  let cursor = textOff + text.size;
  const rodataAlign = Math.max(1, ...rodata.map((s) => s.addralign || 1));
  const rodataOff = align(cursor, Math.max(rodataAlign, 8));
  const rodataPlace = new Map<number, number>();
  cursor = rodataOff;
  for (const s of rodata) {
    cursor = align(cursor, s.addralign || 1);
    rodataPlace.set(s.index, cursor);
    cursor += s.size;
  }
  const rodataSize = cursor - rodataOff;

  // Patch the text and collect dynamic relocations.
  const code = new Uint8Array(text.data);
  const cv = new DataView(code.buffer);
  const dynRelocs: DynReloc[] = [];
  const dynsymIndex = (name: string) => 2 + syscalls.indexOf(name); // 0 null, 1 entrypoint
  for (const r of textRelocs) {
    if (r.offset % INSN_SIZE !== 0 || r.offset + INSN_SIZE > code.length) throw new LinkError(`misplaced relocation at ${r.offset}`);
    const opcode = code[r.offset];
    if (r.type === R_BPF_64_64) {
      if (opcode !== OPC_LDDW) throw new LinkError(`R_BPF_64_64 on a non-lddw instruction at ${r.offset}`);
      const place = rodataPlace.get(r.symbol.shndx);
      if (place === undefined) throw new LinkError(`lddw of ${r.symbol.name} at ${r.offset}: only read-only data can be addressed`);
      const addend = cv.getUint32(r.offset + 4, true);
      const address = BigInt(place) + r.symbol.value + BigInt(addend);
      cv.setUint32(r.offset + 4, Number(address & 0xffffffffn), true);
      cv.setUint32(r.offset + 12, Number(address >> 32n), true);
      dynRelocs.push({ offset: textOff + r.offset, type: R_BPF_64_RELATIVE, symbol: 0 });
    } else if (r.type === R_BPF_64_32) {
      if (opcode !== OPC_CALL) throw new LinkError(`R_BPF_64_32 on a non-call instruction at ${r.offset}`);
      if (r.symbol.shndx === SHN_UNDEF) {
        cv.setInt32(r.offset + 4, -1, true);
        dynRelocs.push({ offset: textOff + r.offset, type: R_BPF_64_32, symbol: dynsymIndex(r.symbol.name) });
      } else if (r.symbol.shndx === text.index && (r.symbol.type === STT_FUNC || r.symbol.type === STT_SECTION)) {
        const target = Number(r.symbol.value) + (cv.getInt32(r.offset + 4, true) + 1) * INSN_SIZE;
        code[r.offset + 1] = (code[r.offset + 1] & 0x0f) | 0x10; // src_reg = 1: a pc-relative call
        cv.setInt32(r.offset + 4, (target - r.offset) / INSN_SIZE - 1, true);
      } else {
        throw new LinkError(`call to ${r.symbol.name} outside .text`);
      }
    } else {
      throw new LinkError(`unsupported relocation type ${r.type} at .text+${r.offset}`);
    }
  }
  // RELATIVE first (DT_RELCOUNT counts them), each group in offset order.
  dynRelocs.sort((a, b) => (a.type === R_BPF_64_RELATIVE ? 0 : 1) - (b.type === R_BPF_64_RELATIVE ? 0 : 1) || a.offset - b.offset);
  const relativeCount = dynRelocs.filter((r) => r.type === R_BPF_64_RELATIVE).length;

  // Section indices: an empty .rodata or .rel.dyn is left out (the loader rejects empty ones).
  const hasRodata = rodataSize > 0;
  const hasRel = dynRelocs.length > 0;
  const names = ['', '.text', ...(hasRodata ? ['.rodata'] : []), '.dynamic', '.dynsym', '.dynstr', ...(hasRel ? ['.rel.dyn'] : []), '.shstrtab'];
  const idx = (name: string) => names.indexOf(name);

  const dynstr = new StringTable();
  const dynsymNames = [ENTRYPOINT, ...syscalls].map((n) => dynstr.add(n));
  const dynstrBytes = dynstr.bytes();
  const dynsymSize = (1 + dynsymNames.length) * SYM_SIZE;

  const dynamicEntries: Array<[number, number]> = [];
  const dynamicOff = align(hasRodata ? rodataOff + rodataSize : textOff + text.size, 8);
  const dynamicCount = (hasRel ? 6 : 0) + 5; // + SYMTAB SYMENT STRTAB STRSZ NULL
  const dynsymOff = align(dynamicOff + dynamicCount * DYN_SIZE, 8);
  const dynstrOff = dynsymOff + dynsymSize;
  const relOff = align(dynstrOff + dynstrBytes.length, 8);
  const relSize = dynRelocs.length * REL_SIZE;
  const loadEnd = hasRel ? relOff + relSize : dynstrOff + dynstrBytes.length;
  if (hasRel) {
    dynamicEntries.push([DT_FLAGS, DF_TEXTREL], [DT_REL, relOff], [DT_RELSZ, relSize], [DT_RELENT, REL_SIZE], [DT_RELCOUNT, relativeCount], [DT_TEXTREL, 0]);
  }
  dynamicEntries.push([DT_SYMTAB, dynsymOff], [DT_SYMENT, SYM_SIZE], [DT_STRTAB, dynstrOff], [DT_STRSZ, dynstrBytes.length], [DT_NULL, 0]);

  const shstrtab = new StringTable();
  const shNames = names.map((n) => shstrtab.add(n));
  const shstrtabBytes = shstrtab.bytes();
  const shstrtabOff = loadEnd;
  const shOff = align(shstrtabOff + shstrtabBytes.length, 8);
  const out = new Out(shOff + names.length * SHDR_SIZE);

  // ELF header.
  out.put(0, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));
  out.u16(16, ET_DYN);
  out.u16(18, EM_BPF);
  out.u32(20, 1);
  out.u64(24, textOff + Number(entry.value));
  out.u64(32, EHDR_SIZE);
  out.u64(40, shOff);
  out.u32(48, 0); // e_flags: SBPFv0
  out.u16(52, EHDR_SIZE);
  out.u16(54, PHDR_SIZE);
  out.u16(56, 3);
  out.u16(58, SHDR_SIZE);
  out.u16(60, names.length);
  out.u16(62, idx('.shstrtab'));

  // Program headers.
  const roStart = hasRodata ? rodataOff : dynamicOff;
  const phdrs: Array<[number, number, number, number, number]> = [
    [PT_LOAD, PF_R | PF_X, textOff, text.size, PAGE],
    [PT_LOAD, PF_R, roStart, loadEnd - roStart, PAGE],
    [PT_DYNAMIC, PF_R, dynamicOff, dynamicEntries.length * DYN_SIZE, 8],
  ];
  phdrs.forEach(([type, flags, off, size, alignment], i) => {
    const at = EHDR_SIZE + i * PHDR_SIZE;
    out.u32(at, type);
    out.u32(at + 4, flags);
    out.u64(at + 8, off);
    out.u64(at + 16, off); // p_vaddr
    out.u64(at + 24, off); // p_paddr
    out.u64(at + 32, size);
    out.u64(at + 40, size);
    out.u64(at + 48, alignment);
  });

  // Contents.
  out.put(textOff, code);
  for (const s of rodata) out.put(rodataPlace.get(s.index)!, s.data);
  dynamicEntries.forEach(([tag, value], i) => {
    out.u64(dynamicOff + i * DYN_SIZE, tag);
    out.u64(dynamicOff + i * DYN_SIZE + 8, value);
  });
  const symAt = (i: number) => dynsymOff + i * SYM_SIZE;
  out.u32(symAt(1), dynsymNames[0]);
  out.u8(symAt(1) + 4, (STB_GLOBAL << 4) | STT_FUNC);
  out.u16(symAt(1) + 6, idx('.text'));
  out.u64(symAt(1) + 8, textOff + Number(entry.value));
  out.u64(symAt(1) + 16, entry.size);
  syscalls.forEach((_, i) => {
    out.u32(symAt(2 + i), dynsymNames[1 + i]);
    out.u8(symAt(2 + i) + 4, (STB_GLOBAL << 4) | STT_NOTYPE);
  });
  out.put(dynstrOff, dynstrBytes);
  dynRelocs.forEach((r, i) => {
    out.u64(relOff + i * REL_SIZE, r.offset);
    out.u64(relOff + i * REL_SIZE + 8, (BigInt(r.symbol) << 32n) | BigInt(r.type));
  });
  out.put(shstrtabOff, shstrtabBytes);

  // Section headers: [name, type, flags, offset, size, link, info, align, entsize].
  const sh: Record<string, [number, bigint, number, number, number, number, number, number]> = {
    '.text': [SHT_PROGBITS, BigInt(SHF_ALLOC | SHF_EXECINSTR), textOff, text.size, 0, 0, 8, 0],
    '.rodata': [SHT_PROGBITS, BigInt(SHF_ALLOC), rodataOff, rodataSize, 0, 0, rodataAlign, 0],
    '.dynamic': [SHT_DYNAMIC, BigInt(SHF_ALLOC), dynamicOff, dynamicEntries.length * DYN_SIZE, idx('.dynstr'), 0, 8, DYN_SIZE],
    '.dynsym': [SHT_DYNSYM, BigInt(SHF_ALLOC), dynsymOff, dynsymSize, idx('.dynstr'), 1, 8, SYM_SIZE],
    '.dynstr': [SHT_STRTAB, BigInt(SHF_ALLOC), dynstrOff, dynstrBytes.length, 0, 0, 1, 0],
    '.rel.dyn': [SHT_REL, BigInt(SHF_ALLOC), relOff, relSize, idx('.dynsym'), 0, 8, REL_SIZE],
    '.shstrtab': [SHT_STRTAB, 0n, shstrtabOff, shstrtabBytes.length, 0, 0, 1, 0],
  };
  names.forEach((name, i) => {
    if (i === 0) return;
    const [type, flags, off, size, link, info, alignment, entsize] = sh[name];
    const at = shOff + i * SHDR_SIZE;
    const allocated = (flags & BigInt(SHF_ALLOC)) !== 0n;
    out.u32(at, shNames[i]);
    out.u32(at + 4, type);
    out.u64(at + 8, flags);
    out.u64(at + 16, allocated ? off : 0); // sh_addr = file offset
    out.u64(at + 24, off);
    out.u64(at + 32, size);
    out.u32(at + 40, link);
    out.u32(at + 44, info);
    out.u64(at + 48, alignment);
    out.u64(at + 56, entsize);
  });
  return out.bytes;
}

