/**
 * Our linker: turns clang's BPF relocatable object into an SBPF v3 program (upstream
 * ld.lld has no BPF target). What the v3 loader accepts is recorded in DESIGN.md
 * "Target: SBPF v3"; the layout is fixed so the output is byte-for-byte reproducible:
 *
 *   ELF header | program headers | read-only data (PF_R, vaddr 0) | code (PF_X, vaddr
 *   0x1_0000_0000) | .symtab | .strtab | .shstrtab | section headers
 *
 * v3 has no relocations and no dynamic sections: every address is final here. `lddw` of
 * read-only data gets its offset in the read-only segment, `lddw` of a function its code
 * address; a call to an undefined symbol is a syscall (`call`, src 0, imm =
 * murmur3_32(name)); a call to a function of the object is pc-relative (src 1). Every
 * instruction is checked against what v3 accepts (sbpf-isa.ts); a refusal names the
 * function and the instruction.
 */
import {
  ElfFormatError,
  EM_BPF,
  ET_DYN,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_ABS64,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHN_UNDEF,
  SHT_NOBITS,
  SHT_PROGBITS,
  SHT_STRTAB,
  SHT_SYMTAB,
  STB_GLOBAL,
  STB_LOCAL,
  STT_FUNC,
  STT_OBJECT,
  STT_SECTION,
  readRelocatableObject,
  type ElfObject,
  type ElfRelocation,
  type ElfSection,
  type ElfSymbol,
} from './elf-reader';
import {
  ElfImage,
  ELF_HEADER,
  ELF64_LE_IDENT,
  PF_R,
  PF_X,
  PROGRAM_HEADER,
  PT_LOAD,
  SECTION_HEADER,
  StringTable,
  SYMBOL,
  type Fields,
} from './elf-writer';
import { syscallHash } from './murmur3';
import { INSN_SIZE, mnemonic, OPC_CALL, OPC_CALLX, OPC_LDDW, readInsn, refusal } from './sbpf-isa';

export class LinkError extends Error {
  override name = 'LinkError';
}

/**
 * Syscalls the runtime registers for SBPF v3 programs; any other undefined symbol is a link
 * error (v3 resolves a syscall by hash only when it runs, so a typo would deploy and fail
 * later). Left out: `sol_alloc_free_` (not registered for new deployments) and
 * `sol_get_fees_sysvar` (removed).
 */
export const KNOWN_SYSCALLS: ReadonlySet<string> = new Set([
  'abort',
  'sol_panic_',
  'sol_log_',
  'sol_log_64_',
  'sol_log_compute_units_',
  'sol_log_pubkey',
  'sol_log_data',
  'sol_create_program_address',
  'sol_try_find_program_address',
  'sol_sha256',
  'sol_keccak256',
  'sol_blake3',
  'sol_secp256k1_recover',
  'sol_invoke_signed_c',
  'sol_invoke_signed_rust',
  'sol_get_clock_sysvar',
  'sol_get_rent_sysvar',
  'sol_get_epoch_schedule_sysvar',
  'sol_get_epoch_rewards_sysvar',
  'sol_get_last_restart_slot',
  'sol_get_sysvar',
  'sol_memcpy_',
  'sol_memmove_',
  'sol_memset_',
  'sol_memcmp_',
  'sol_set_return_data',
  'sol_get_return_data',
  'sol_get_stack_height',
  'sol_get_processed_sibling_instruction',
  'sol_remaining_compute_units',
  'sol_curve_validate_point',
  'sol_curve_group_op',
  'sol_curve_multiscalar_mul',
  'sol_poseidon',
  'sol_big_mod_exp',
  'sol_alt_bn128_group_op',
  'sol_alt_bn128_compression',
  'sol_get_epoch_stake',
]);

export const ENTRYPOINT = 'entrypoint';
/** Where the loader maps the code segment; read-only data starts at 0. */
export const CODE_VADDR = 0x1_0000_0000n;
/** SBPF v3 in `e_flags`. */
export const SBPF_V3 = 3;

/** Nothing may sit at address 0 (NULL): read-only data starts with this many zero bytes. */
const NULL_GUARD = 8;

const align = (n: number, to: number) => Math.ceil(n / to) * to;

/** Names where an instruction sits: "in function f at f+0x18 (.text instruction 7)". */
function locator(obj: ElfObject, text: ElfSection) {
  const functions = obj.symbols
    .filter((s) => s.type === STT_FUNC && s.shndx === text.index)
    .sort((a, b) => Number(a.value - b.value));
  return (offset: number): string => {
    const fn = functions.filter((s) => Number(s.value) <= offset).at(-1);
    const insn = `.text instruction ${offset / INSN_SIZE}`;
    return fn
      ? `in function ${fn.name} at ${fn.name}+0x${(offset - Number(fn.value)).toString(16)} (${insn})`
      : `at ${insn}`;
  };
}

function pickSections(obj: ElfObject) {
  const alloc = obj.sections.filter((s) => (s.flags & BigInt(SHF_ALLOC)) !== 0n && s.size > 0);
  const texts = alloc.filter((s) => (s.flags & BigInt(SHF_EXECINSTR)) !== 0n);
  if (texts.length !== 1 || texts[0].name !== '.text') {
    throw new LinkError(
      `expected exactly one executable section named .text, found ${texts.map((s) => s.name).join(', ') || 'none'} (compile without -ffunction-sections)`,
    );
  }
  const writable = alloc.filter((s) => (s.flags & BigInt(SHF_WRITE)) !== 0n || s.type === SHT_NOBITS);
  const rodata = alloc.filter((s) => s !== texts[0] && !writable.includes(s));
  for (const s of rodata) {
    if (!s.name.startsWith('.rodata')) throw new LinkError(`unsupported allocated section ${s.name}`);
  }
  return { text: texts[0], rodata, writable };
}

function writableDataError(obj: ElfObject, writable: ElfSection[], where?: string, symbol?: ElfSymbol): LinkError {
  const names = symbol
    ? symbol.name
    : obj.symbols
        .filter((s) => writable.some((w) => w.index === s.shndx) && s.type === STT_OBJECT)
        .map((s) => s.name)
        .join(', ') || writable.map((s) => s.name).join(', ');
  const section = writable.find((w) => w.index === symbol?.shndx)?.name ?? writable.map((w) => w.name).join(', ');
  return new LinkError(
    `${where ? `${where}: ` : ''}writable data is not allowed in SBPF programs: ${names} (${section}); make it const or keep it on the stack`,
  );
}

/** Links a BPF relocatable object (clang -target bpf -mcpu=v2 -c) into an SBPF v3 program. */
export function linkSbpf(objectFile: Uint8Array): Uint8Array {
  let obj: ElfObject;
  try {
    obj = readRelocatableObject(objectFile);
  } catch (e) {
    if (e instanceof ElfFormatError) throw new LinkError(`bad input object: ${e.message}`);
    throw e;
  }
  const { text, rodata, writable } = pickSections(obj);
  const where = locator(obj, text);
  if (text.size % INSN_SIZE !== 0) throw new LinkError('.text is not a whole number of instructions');

  const entry = obj.symbols.find((s) => s.name === ENTRYPOINT && s.type === STT_FUNC && s.shndx === text.index);
  if (!entry) throw new LinkError(`no function named ${ENTRYPOINT} in .text`);

  // Layout: [0] read-only data only when there is some.
  const hasRodata = rodata.length > 0;
  const phnum = hasRodata ? 2 : 1;
  const rodataOff = ELF_HEADER.size + phnum * PROGRAM_HEADER.size;
  const rodataPlace = new Map<number, number>(); // section index → vaddr in the read-only segment
  let cursor = NULL_GUARD;
  for (const s of rodata) {
    cursor = align(cursor, Math.max(1, s.addralign));
    rodataPlace.set(s.index, cursor);
    cursor += s.size;
  }
  const rodataSize = hasRodata ? align(cursor, INSN_SIZE) : 0;
  const textOff = rodataOff + rodataSize;

  /** The final address of symbol + addend, or null when it has none in the program. */
  const addressOf = (symbol: ElfSymbol, addend: bigint): bigint | null => {
    if (symbol.shndx === text.index) return CODE_VADDR + symbol.value + addend;
    const place = rodataPlace.get(symbol.shndx);
    return place === undefined ? null : BigInt(place) + symbol.value + addend;
  };
  const isWritable = (symbol: ElfSymbol) => writable.some((w) => w.index === symbol.shndx);

  // Read-only data: copy, then write the final address of any pointer it holds.
  const ro = new Uint8Array(rodataSize);
  const roView = new DataView(ro.buffer);
  for (const s of rodata) {
    ro.set(s.data, rodataPlace.get(s.index)!);
    for (const r of obj.relocations.get(s.index) ?? []) {
      const at = rodataPlace.get(s.index)! + r.offset;
      const target = r.type === R_BPF_64_ABS64 ? addressOf(r.symbol, roView.getBigUint64(at, true)) : null;
      if (target === null) {
        throw new LinkError(
          `${s.name}+0x${r.offset.toString(16)}: unresolvable relocation (type ${r.type}) to ${r.symbol.name || 'an unnamed symbol'}${isWritable(r.symbol) ? ', which is writable data' : ''}`,
        );
      }
      roView.setBigUint64(at, target, true);
    }
  }

  // Code: resolve every relocation, then check every instruction.
  const code = new Uint8Array(text.data);
  const cv = new DataView(code.buffer);
  const resolvedCalls = new Set<number>();
  const textRelocs: ElfRelocation[] = obj.relocations.get(text.index) ?? [];
  for (const r of textRelocs) {
    if (r.offset % INSN_SIZE !== 0 || r.offset + INSN_SIZE > code.length)
      throw new LinkError(`misplaced relocation at .text+0x${r.offset.toString(16)}`);
    const here = where(r.offset);
    const insn = readInsn(code, r.offset);
    if (isWritable(r.symbol))
      throw writableDataError(obj, writable, `${here}: ${mnemonic(insn)} of ${r.symbol.name}`, r.symbol);
    if (r.type === R_BPF_64_64 && insn.opcode === OPC_LDDW) {
      const address = addressOf(r.symbol, BigInt(cv.getUint32(r.offset + 4, true)));
      if (address === null) {
        throw new LinkError(
          `${here}: unresolvable relocation: lddw of ${r.symbol.name || 'an unnamed symbol'}${r.symbol.shndx === SHN_UNDEF ? ', which is undefined' : ''} (SBPF v3 has no dynamic linking: only read-only data and functions of this object have an address)`,
        );
      }
      cv.setUint32(r.offset + 4, Number(address & 0xffffffffn), true);
      cv.setUint32(r.offset + 12, Number(address >> 32n), true);
    } else if (r.type === R_BPF_64_32 && insn.opcode === OPC_CALL) {
      if (r.symbol.shndx === SHN_UNDEF) {
        if (!KNOWN_SYSCALLS.has(r.symbol.name)) {
          throw new LinkError(
            `${here}: call to ${r.symbol.name}, an unknown syscall: undefined symbols must be Solana syscalls (no libc here: write the loop, or use sol_memcpy_)`,
          );
        }
        code[r.offset + 1] &= 0x0f; // src 0: a syscall, by hash
        cv.setUint32(r.offset + 4, syscallHash(r.symbol.name), true);
      } else if (r.symbol.shndx === text.index && (r.symbol.type === STT_FUNC || r.symbol.type === STT_SECTION)) {
        const target = Number(r.symbol.value) + (cv.getInt32(r.offset + 4, true) + 1) * INSN_SIZE;
        code[r.offset + 1] = (code[r.offset + 1] & 0x0f) | 0x10; // src 1: pc-relative
        cv.setInt32(r.offset + 4, (target - r.offset) / INSN_SIZE - 1, true);
      } else {
        throw new LinkError(
          `${here}: unresolvable relocation: call to ${r.symbol.name}, which is not a function of .text`,
        );
      }
      resolvedCalls.add(r.offset);
    } else {
      throw new LinkError(
        `${here}: unresolvable relocation (type ${r.type}) on ${mnemonic(insn)} to ${r.symbol.name || 'an unnamed symbol'}`,
      );
    }
  }
  if (writable.length > 0) throw writableDataError(obj, writable);

  const count = code.length / INSN_SIZE;
  for (let i = 0; i < count; i++) {
    const at = i * INSN_SIZE;
    const insn = readInsn(code, at);
    const why = refusal(insn);
    if (why) throw new LinkError(`${where(at)}: ${why}`);
    if (insn.opcode === OPC_LDDW) {
      if (i + 1 >= count || code[at + INSN_SIZE] !== 0) throw new LinkError(`${where(at)}: incomplete lddw`);
      i++;
    } else if (insn.opcode === OPC_CALL && !resolvedCalls.has(at)) {
      // clang already made calls to static functions pc-relative (src 1).
      const target = i + 1 + insn.imm;
      if (insn.src !== 1 || target < 0 || target >= count) {
        throw new LinkError(
          `${where(at)}: call with immediate ${insn.imm} is neither a syscall nor a function of this program`,
        );
      }
    } else if (insn.opcode === OPC_CALLX && (insn.src !== 0 || insn.imm !== 0 || insn.dst > 9)) {
      throw new LinkError(
        `${where(at)}: callx must name its register in dst (as clang 19 does), got dst ${insn.dst}, src ${insn.src}, imm ${insn.imm}`,
      );
    }
  }

  // Symbols for tools (the loader reads none): functions and read-only objects, locals first.
  const symbols = obj.symbols
    .filter(
      (s) => (s.type === STT_FUNC && s.shndx === text.index) || (s.type === STT_OBJECT && rodataPlace.has(s.shndx)),
    )
    .map((s) => ({ s, value: addressOf(s, 0n)!, local: s.bind === STB_LOCAL }))
    .sort((a, b) => Number(b.local) - Number(a.local) || Number(a.value - b.value) || a.s.name.localeCompare(b.s.name));
  const firstGlobal = 1 + symbols.filter((x) => x.local).length;

  const names = ['', ...(hasRodata ? ['.rodata'] : []), '.text', '.symtab', '.strtab', '.shstrtab'];
  const idx = (name: string) => names.indexOf(name);
  const strtab = new StringTable();
  const symNames = symbols.map((x) => strtab.add(x.s.name));
  const strtabBytes = strtab.bytes();
  const shstrtab = new StringTable();
  const shNames = names.map((n) => shstrtab.add(n));
  const shstrtabBytes = shstrtab.bytes();

  const symtabOff = textOff + code.length;
  const symtabSize = (1 + symbols.length) * SYMBOL.size;
  const strtabOff = symtabOff + symtabSize;
  const shstrtabOff = strtabOff + strtabBytes.length;
  const shOff = align(shstrtabOff + shstrtabBytes.length, 8);
  const out = new ElfImage(shOff + names.length * SECTION_HEADER.size);

  out.write(0, ELF_HEADER, {
    ...ELF64_LE_IDENT,
    type: ET_DYN,
    machine: EM_BPF,
    version: 1,
    entry: CODE_VADDR + entry.value,
    phoff: ELF_HEADER.size,
    shoff: shOff,
    flags: SBPF_V3,
    ehsize: ELF_HEADER.size,
    phentsize: PROGRAM_HEADER.size,
    phnum,
    shentsize: SECTION_HEADER.size,
    shnum: names.length,
    shstrndx: idx('.shstrtab'),
  });

  // Program headers: contiguous PT_LOADs right after the table.
  const segments = [
    ...(hasRodata ? [{ flags: PF_R, offset: rodataOff, vaddr: 0n, size: rodataSize }] : []),
    { flags: PF_X, offset: textOff, vaddr: CODE_VADDR, size: code.length },
  ];
  segments.forEach(({ flags, offset, vaddr, size }, i) => {
    out.write(ELF_HEADER.size + i * PROGRAM_HEADER.size, PROGRAM_HEADER, {
      type: PT_LOAD,
      flags,
      offset,
      vaddr,
      paddr: vaddr,
      filesz: size,
      memsz: size,
      align: INSN_SIZE,
    });
  });

  out.put(rodataOff, ro);
  out.put(textOff, code);
  symbols.forEach(({ s, value, local }, i) => {
    out.write(symtabOff + (i + 1) * SYMBOL.size, SYMBOL, {
      name: symNames[i],
      info: ((local ? STB_LOCAL : STB_GLOBAL) << 4) | s.type,
      shndx: s.shndx === text.index ? idx('.text') : idx('.rodata'),
      value,
      size: s.size,
    });
  });
  out.put(strtabOff, strtabBytes);
  out.put(shstrtabOff, shstrtabBytes);

  // Section headers, after the null one.
  const sections: Record<string, Fields<typeof SECTION_HEADER>> = {
    '.rodata': { type: SHT_PROGBITS, flags: SHF_ALLOC, offset: rodataOff, size: rodataSize, addralign: 8 },
    '.text': {
      type: SHT_PROGBITS,
      flags: SHF_ALLOC | SHF_EXECINSTR,
      offset: textOff,
      addr: CODE_VADDR,
      size: code.length,
      addralign: 8,
    },
    '.symtab': {
      type: SHT_SYMTAB,
      flags: 0,
      offset: symtabOff,
      size: symtabSize,
      link: idx('.strtab'),
      info: firstGlobal,
      addralign: 8,
      entsize: SYMBOL.size,
    },
    '.strtab': { type: SHT_STRTAB, flags: 0, offset: strtabOff, size: strtabBytes.length, addralign: 1 },
    '.shstrtab': { type: SHT_STRTAB, flags: 0, offset: shstrtabOff, size: shstrtabBytes.length, addralign: 1 },
  };
  names.forEach((name, i) => {
    if (i > 0) out.write(shOff + i * SECTION_HEADER.size, SECTION_HEADER, { name: shNames[i], ...sections[name] });
  });
  return out.bytes;
}
