/**
 * Which of clang's upstream-BPF instructions an SBPF v3 loader accepts and runs the same
 * way (solana-sbpf's verifier and interpreter for `SBPFVersion::V3`). The linker checks
 * every instruction with `refusal()` so a program that would be refused at deploy, or run
 * differently from what the C compiler meant, never leaves the build.
 */

export const INSN_SIZE = 8;

export const OPC_LDDW = 0x18;
export const OPC_CALL = 0x85;
export const OPC_CALLX = 0x8d;
const OPC_LE = 0xd4;
const OPC_BE = 0xdc;
const OPC_HOR64 = 0xf7;

/** The instruction classes: the opcode's low three bits. */
const CLASS = { LDX: 0x01, ST: 0x02, STX: 0x03, ALU32: 0x04, JMP: 0x05, PQR: 0x06, ALU64: 0x07 } as const;

const ALU_NAMES = ['add', 'sub', 'mul', 'div', 'or', 'and', 'lsh', 'rsh', 'neg', 'mod', 'xor', 'mov', 'arsh', 'end'];
const JMP_NAMES: Record<number, string> = {
  0x00: 'ja',
  0x10: 'jeq',
  0x20: 'jgt',
  0x30: 'jge',
  0x40: 'jset',
  0x50: 'jne',
  0x60: 'jsgt',
  0x70: 'jsge',
  0x80: 'call',
  0x90: 'exit',
  0xa0: 'jlt',
  0xb0: 'jle',
  0xc0: 'jslt',
  0xd0: 'jsle',
};
const SIZE_NAMES: Record<number, string> = { 0x00: 'w', 0x08: 'h', 0x10: 'b', 0x18: 'dw' };

export interface Insn {
  opcode: number;
  dst: number;
  src: number;
  offset: number;
  imm: number;
}

export function readInsn(code: Uint8Array, at: number): Insn {
  const view = new DataView(code.buffer, code.byteOffset, code.byteLength);
  return {
    opcode: code[at],
    dst: code[at + 1] & 0x0f,
    src: code[at + 1] >> 4,
    offset: view.getInt16(at + 2, true),
    imm: view.getInt32(at + 4, true),
  };
}

/** A short name for messages: `add32`, `ldxdw`, `jeq`, or the opcode in hex. */
export function mnemonic({ opcode }: Insn): string {
  const cls = opcode & 0x07;
  const op = opcode & 0xf0;
  const size = SIZE_NAMES[opcode & 0x18] ?? '?';
  if (opcode === OPC_LDDW) return 'lddw';
  if (opcode === OPC_HOR64) return 'hor64';
  if (opcode === OPC_CALLX) return 'callx';
  if (cls === CLASS.ALU32) return `${ALU_NAMES[op >> 4] ?? `alu 0x${op.toString(16)}`}32`;
  if (cls === CLASS.ALU64) return `${ALU_NAMES[op >> 4] ?? `alu 0x${op.toString(16)}`}64`;
  if (cls === CLASS.JMP) return JMP_NAMES[op] ?? `jmp 0x${op.toString(16)}`;
  if (cls === CLASS.PQR) return `pqr/jmp32 0x${op.toString(16)}`;
  if (cls === CLASS.LDX && (opcode & 0xe0) === 0x60) return `ldx${size}`;
  if (cls === CLASS.ST && (opcode & 0xe0) === 0x60) return `st${size}`;
  if (cls === CLASS.STX && (opcode & 0xe0) === 0x60) return `stx${size}`;
  return `opcode 0x${opcode.toString(16).padStart(2, '0')}`;
}

/** Opcodes v3 accepts as they are (calls, lddw and callx get their own checks in the linker). */
const ACCEPTED = new Set<number>([
  OPC_LDDW,
  0x61,
  0x69,
  0x71,
  0x79, // ldx w h b dw
  0x62,
  0x6a,
  0x72,
  0x7a, // st imm
  0x63,
  0x6b,
  0x73,
  0x7b, // stx
  OPC_LE,
  OPC_BE,
  OPC_CALL,
  OPC_CALLX,
  0x95,
  0x05,
  ...[0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0xa0, 0xb0, 0xc0, 0xd0].flatMap((op) => [op | 0x05, op | 0x0d]),
  ...[0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x90, 0xa0, 0xb0, 0xc0].flatMap((op) => [op | 0x07, op | 0x0f]),
  0x87, // neg64
]);

const STACK_REG = 10;

/**
 * Why SBPF v3 refuses this instruction or runs it differently, or null when it is fine.
 * The caller adds where it is (function and instruction).
 */
export function refusal(insn: Insn): string | null {
  const { opcode } = insn;
  const cls = opcode & 0x07;
  const name = `${mnemonic(insn)} (opcode 0x${opcode.toString(16).padStart(2, '0')})`;
  if (opcode === OPC_HOR64) {
    return `${name} exists only in SBPF v2 (it replaces lddw there); v3 loads 64-bit constants with lddw`;
  }
  if (cls === CLASS.PQR) {
    return `${name} is in class 0x06, the PQR class of SBPF v2 (32-bit jumps upstream), which v3 refuses or decodes differently: compile with -mcpu=v2`;
  }
  if (cls === CLASS.ALU32 && opcode !== OPC_LE && opcode !== OPC_BE) {
    return `${name} is ALU32 class: SBPF sign-extends 32-bit results where eBPF zero-extends them, so it would compute something else: compile with -mcpu=v2 (no alu32)`;
  }
  if (!ACCEPTED.has(opcode)) return `${name} is not an SBPF v3 instruction (compile with -mcpu=v2)`;
  if (cls === CLASS.ALU64 && insn.offset !== 0) {
    return `${name} with offset ${insn.offset} is a -mcpu=v4 signed form SBPF does not have`;
  }
  if ((cls === CLASS.ALU64 || cls === CLASS.LDX || opcode === OPC_LDDW) && insn.dst === STACK_REG) {
    return `${name} writes r10: SBPF v3 has fixed stack frames and a read-only frame pointer`;
  }
  return null;
}
