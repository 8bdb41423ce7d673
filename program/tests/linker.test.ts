// Our SBPFv0 linker on small fixtures: paths the tag registry itself does not take.
import { Keypair, TransactionInstruction } from '@solana/web3.js';
import { LiteSVM } from 'litesvm';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileObject } from '@/program/build';
import { linkSbpf, LinkError } from '@/program/linker/link-sbpf';
import { customErrorCode, expectSuccess, fundedKeypair, send, toAddress } from '@/program/litesvm-harness';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const work = mkdtempSync(path.join(tmpdir(), 'sbpf-linker-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function link(fixture: string): Uint8Array {
  const object = path.join(work, `${fixture}.o`);
  compileObject(path.join(FIXTURES, `${fixture}.c`), object);
  return linkSbpf(new Uint8Array(readFileSync(object)));
}

function sectionNames(so: Uint8Array): string[] {
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

function run(so: Uint8Array, data: number[]) {
  const svm = new LiteSVM();
  const programId = Keypair.generate().publicKey;
  svm.addProgram(toAddress(programId), so);
  const payer = fundedKeypair(svm);
  const ix = new TransactionInstruction({ programId, keys: [], data: Buffer.from(data) });
  return send(svm, [ix], payer.publicKey, [payer]);
}

describe('SBPFv0 linker', () => {
  it('links global and static calls, read-only data and a syscall into a program that runs', () => {
    const so = link('calls');
    expect(sectionNames(so)).toEqual(['', '.text', '.rodata', '.dynamic', '.dynsym', '.dynstr', '.rel.dyn', '.shstrtab']);
    const result = expectSuccess(run(so, []));
    expect(result.logs()).toContain('Program log: linker fixture: hello');
  });

  it('leaves out an empty .rodata and .rel.dyn, and the program still loads', () => {
    const so = link('minimal');
    expect(sectionNames(so)).toEqual(['', '.text', '.dynamic', '.dynsym', '.dynstr', '.shstrtab']);
    expectSuccess(run(so, [0]));
    expect(customErrorCode(run(so, [0xff]))).toBe(7);
  });

  it('is deterministic', () => {
    expect(Buffer.from(link('calls')).equals(Buffer.from(link('calls')))).toBe(true);
  });

  it.each([
    ['writable-global', /writable globals are not allowed in SBPFv0: \.bss/],
    ['libc-call', /undefined symbol strcmp is not a Solana syscall/],
  ])('refuses %s', (fixture, message) => {
    expect(() => link(fixture)).toThrow(LinkError);
    expect(() => link(fixture)).toThrow(message);
  });

  it('refuses input that is not a BPF relocatable object', () => {
    expect(() => linkSbpf(new Uint8Array(64))).toThrow(/bad input object: not an ELF file/);
    expect(() => linkSbpf(link('minimal'))).toThrow(/not a relocatable object/);
  });
});

