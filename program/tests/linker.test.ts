// Our SBPF v3 linker on small fixtures: the layout the v3 loader requires, programs that run
// after a real loader-v3 deploy with every feature on, and each construct it refuses.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileObject } from '@/program/build';
import { generateSigner } from '@/program/deploy/keys';
import { deployToLiteSvm } from '@/program/deploy/litesvm-deploy';
import { CODE_VADDR, linkSbpf, LinkError } from '@/program/linker/link-sbpf';
import { murmur3_32, syscallHash } from '@/program/linker/murmur3';
import { customErrorCode, expectSuccess, fundedKeypair, newSvm, send } from '@/program/litesvm-harness';
import { codeInstructions, elfHeader, sectionNames } from './sbpf-elf-layout';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const work = mkdtempSync(path.join(tmpdir(), 'sbpf-linker-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Compiles a fixture with clang and links it: a fresh run each call. */
function link(fixture: string): Uint8Array {
  const object = path.join(work, `${fixture}.o`);
  compileObject(path.join(FIXTURES, `${fixture}.c`), object);
  return linkSbpf(new Uint8Array(readFileSync(object)));
}

const linkedOnce = new Map<string, Uint8Array>();
/** A fixture that links, compiled once for the whole file (the tests only read the bytes). */
function linked(fixture: string): Uint8Array {
  let so = linkedOnce.get(fixture);
  if (!so) linkedOnce.set(fixture, (so = link(fixture)));
  return so;
}

/** Deploys through loader-v3 (SIMD-0500 on) and calls the program once per data. */
function deployAndRun(so: Uint8Array, ...data: number[][]) {
  const svm = newSvm();
  const { programId } = deployToLiteSvm(svm, so, { program: generateSigner() });
  const payer = fundedKeypair(svm);
  return data.map((d) => send(svm, [{ programAddress: programId, data: new Uint8Array(d) }], payer.address, [payer]));
}

describe('murmur3_32, the syscall hash', () => {
  it('matches the known values', () => {
    expect(syscallHash('sol_log_')).toBe(0x207559bd);
    expect(syscallHash('abort')).toBe(0xb6fc1a11);
    expect(murmur3_32(new Uint8Array(0))).toBe(0);
    expect(murmur3_32(new TextEncoder().encode('hello'))).toBe(0x248bfa47);
  });
});

describe('SBPF v3 linker', () => {
  it('writes the v3 layout: e_flags 3, read-only data at 0 then code at 0x1_0000_0000, no dynamic sections', () => {
    const so = linked('calls');
    const elf = elfHeader(so);
    expect(elf.machine).toBe(247);
    expect(elf.flags).toBe(3);
    expect(elf.phoff).toBe(64);
    expect(elf.phentsize).toBe(56);
    const [ro, code] = elf.programHeaders;
    expect(elf.programHeaders).toHaveLength(2);
    expect(ro).toMatchObject({ type: 1, flags: 4, offset: 64 + 2 * 56, vaddr: 0n, paddr: 0n });
    expect(code).toMatchObject({
      type: 1,
      flags: 1,
      offset: ro.offset + ro.filesz,
      vaddr: CODE_VADDR,
      paddr: CODE_VADDR,
    });
    for (const p of elf.programHeaders) {
      expect(p.filesz % 8).toBe(0);
      expect(p.memsz).toBe(p.filesz);
    }
    expect(Array.from(so.subarray(ro.offset, ro.offset + 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]); // nothing at NULL
    expect(elf.entry >= CODE_VADDR && elf.entry < CODE_VADDR + BigInt(code.filesz)).toBe(true);
    expect(sectionNames(so)).toEqual(['', '.rodata', '.text', '.symtab', '.strtab', '.shstrtab']);
  });

  it('calls syscalls by the murmur3 hash of their name (src 0) and functions pc-relative (src 1)', () => {
    const calls = codeInstructions(linked('calls')).filter((i) => i.opcode === 0x85);
    expect(calls.filter((c) => c.regs >> 4 === 0).map((c) => c.imm)).toEqual([0x207559bd]);
    expect(calls.filter((c) => c.regs >> 4 === 1)).toHaveLength(2);
  });

  it('links global and static calls, read-only data and a syscall into a program that deploys and runs', () => {
    const [result] = deployAndRun(linked('calls'), []);
    expect(expectSuccess(result).logs()).toContain('Program log: linker fixture: hello');
  });

  it('leaves out the read-only program header when there is no read-only data, and the program still deploys', () => {
    const so = linked('minimal');
    expect(elfHeader(so).programHeaders.map((p) => p.flags)).toEqual([1]);
    expect(sectionNames(so)).toEqual(['', '.text', '.symtab', '.strtab', '.shstrtab']);
    const [ok, seven] = deployAndRun(so, [0], [0xff]);
    expectSuccess(ok);
    expect(customErrorCode(seven)).toBe(7);
  });

  it('writes final code addresses into read-only data: a function table called through callx', () => {
    expect(deployAndRun(link('function-table'), [0], [1]).map(customErrorCode)).toEqual([40, 41]);
  });

  it('is deterministic', () => {
    // Two fresh compile-and-link runs, not the memoized bytes.
    expect(Buffer.from(link('calls')).equals(Buffer.from(link('calls')))).toBe(true);
  });

  it.each([
    [
      'alu32',
      /in function add_low_halves at add_low_halves\+0x8 \(\.text instruction 1\): add32 \(opcode 0x0c\) is ALU32 class/,
    ],
    [
      'pqr',
      /in function compare_low_half at compare_low_half\+0x8 \(\.text instruction 1\): .*opcode 0x26.* class 0x06, the PQR class/,
    ],
    [
      'hor64',
      /in function high_bits at high_bits\+0x0 \(\.text instruction 0\): hor64 \(opcode 0xf7\) exists only in SBPF v2/,
    ],
    [
      'extern-data',
      /in function look_up at look_up\+0x0 \(\.text instruction 0\): unresolvable relocation: lddw of lookup_table, which is undefined/,
    ],
    [
      'writable-global',
      /in function entrypoint at entrypoint\+0x8 \(\.text instruction 1\): lddw of counter: writable data is not allowed in SBPF programs: counter \(\.bss\)/,
    ],
    [
      'libc-call',
      /in function entrypoint at entrypoint\+0x10 \(\.text instruction 2\): call to strcmp, an unknown syscall/,
    ],
  ])('refuses %s, naming the function and the instruction', (fixture, message) => {
    let error: unknown;
    try {
      link(fixture);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LinkError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses input that is not a BPF relocatable object', () => {
    expect(() => linkSbpf(new Uint8Array(64))).toThrow(/bad input object: not an ELF file/);
    expect(() => linkSbpf(linked('minimal'))).toThrow(/not a relocatable object/);
  });
});
