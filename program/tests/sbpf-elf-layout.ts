// Reads back what the tests check in a linked program: header fields, program headers,
// section names. Independent of the linker's own code, so a linker bug cannot hide itself.

export interface ProgramHeader {
  type: number;
  flags: number;
  offset: number;
  vaddr: bigint;
  paddr: bigint;
  filesz: number;
  memsz: number;
}

export function elfHeader(so: Uint8Array) {
  const view = new DataView(so.buffer, so.byteOffset, so.byteLength);
  const phnum = view.getUint16(56, true);
  const programHeaders: ProgramHeader[] = Array.from({ length: phnum }, (_, i) => {
    const at = Number(view.getBigUint64(32, true)) + i * 56;
    return {
      type: view.getUint32(at, true),
      flags: view.getUint32(at + 4, true),
      offset: Number(view.getBigUint64(at + 8, true)),
      vaddr: view.getBigUint64(at + 16, true),
      paddr: view.getBigUint64(at + 24, true),
      filesz: Number(view.getBigUint64(at + 32, true)),
      memsz: Number(view.getBigUint64(at + 40, true)),
    };
  });
  return {
    machine: view.getUint16(18, true),
    entry: view.getBigUint64(24, true),
    phoff: Number(view.getBigUint64(32, true)),
    flags: view.getUint32(48, true),
    phentsize: view.getUint16(54, true),
    programHeaders,
  };
}

export function sectionNames(so: Uint8Array): string[] {
  const view = new DataView(so.buffer, so.byteOffset, so.byteLength);
  const shoff = Number(view.getBigUint64(40, true));
  const count = view.getUint16(60, true);
  const strtab = Number(view.getBigUint64(shoff + view.getUint16(62, true) * 64 + 24, true));
  return Array.from({ length: count }, (_, i) => {
    let at = strtab + view.getUint32(shoff + i * 64, true);
    let name = '';
    while (so[at] !== 0) name += String.fromCharCode(so[at++]);
    return name;
  });
}

/** The code segment's instructions as [opcode, registers byte, imm]. */
export function codeInstructions(so: Uint8Array): Array<{ opcode: number; regs: number; imm: number }> {
  const code = elfHeader(so).programHeaders.find((p) => p.flags === 1)!;
  const view = new DataView(so.buffer, so.byteOffset, so.byteLength);
  return Array.from({ length: code.filesz / 8 }, (_, i) => {
    const at = code.offset + i * 8;
    return { opcode: so[at], regs: so[at + 1], imm: view.getUint32(at + 4, true) };
  });
}
