// isTagRegistryError / registryErrorOf against the error values each client really produces:
// a LiteSVM failure from the program itself, web3.js SendTransactionError, the RPC's JSON
// shape, kit's SolanaError, and wrappers around them.
import { SolanaError, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM } from '@solana/kit';
import { Keypair, SendTransactionError, SystemProgram } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { fundedKeypair, PROGRAM_ID, send, startSvm } from '@/program/litesvm-harness';

const ours = PROGRAM_ID.toBase58();
const other = Keypair.generate().publicKey.toBase58();
const code = registryErrorCode('AlreadyRegistered');
const hex = `0x${code.toString(16)}`;

function failedLogs(program: string) {
  return [`Program ${program} invoke [1]`, `Program log: AnchorError occurred. Error Code: AlreadyRegistered. Error Number: 6012. Error Message: Tag is already registered.`, `Program ${program} failed: custom program error: ${hex}`];
}

function sendTransactionError(logs: string[] | undefined) {
  return new SendTransactionError({
    action: 'simulate',
    signature: '',
    transactionMessage: `Transaction simulation failed: Error processing Instruction 0: custom program error: ${hex}`,
    logs,
  });
}

describe('registryErrorOf', () => {
  it('reads a real LiteSVM failure of the program', () => {
    const svm = startSvm();
    const owner = fundedKeypair(svm);
    const ix = () => registerTagInstruction({ programId: PROGRAM_ID, tag: 'alice', owner: owner.publicKey, wallet: owner.publicKey, feePayer: owner.publicKey });
    send(svm, [ix()], owner.publicKey, [owner]);
    const failed = send(svm, [ix()], owner.publicKey, [owner]);
    expect(registryErrorOf(failed)?.name).toBe('AlreadyRegistered');
    expect(isTagRegistryError(failed, 'AlreadyRegistered', { programId: PROGRAM_ID })).toBe(true);
    expect(isTagRegistryError(failed, 'TagTooShort')).toBe(false);
  });

  it.each([
    ['SendTransactionError with logs', () => sendTransactionError(failedLogs(ours))],
    ['SendTransactionError without logs (preflight text)', () => sendTransactionError(undefined)],
    ['RPC InstructionError', () => ({ InstructionError: [0, { Custom: code }] })],
    ['a confirmation result { value: { err } }', () => ({ value: { err: { InstructionError: [0, { Custom: code }] } } })],
    ['a simulation result { err, logs }', () => ({ err: { InstructionError: [0, { Custom: code }] }, logs: failedLogs(ours) })],
    ['kit SolanaError', () => new SolanaError(SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM, { code, index: 0 })],
    ['a wallet adapter error wrapping one', () => Object.assign(new Error('Unexpected error'), { error: sendTransactionError(failedLogs(ours)) })],
    ['an Error with a cause', () => new Error('send failed', { cause: { InstructionError: [0, { Custom: code }] } })],
  ])('recognises %s by code', (_case, make) => {
    expect(registryErrorOf(make())).toEqual(REGISTRY_ERRORS.find((e) => e.name === 'AlreadyRegistered'));
    expect(isTagRegistryError(make(), 'AlreadyRegistered')).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', `custom program error: ${hex}`],
    ['a code outside the table', { InstructionError: [0, { Custom: 42 }] }],
    ['an instruction error without a code', { InstructionError: [0, 'InvalidAccountData'] }],
    ['a message that only names the error', new Error('AlreadyRegistered: Tag is already registered')],
  ])('finds nothing in %s', (_case, value) => {
    expect(registryErrorOf(value)).toBeNull();
  });

  it('with programId, counts only codes traced to our program', () => {
    expect(isTagRegistryError(sendTransactionError(failedLogs(other)), 'AlreadyRegistered')).toBe(true);
    expect(isTagRegistryError(sendTransactionError(failedLogs(other)), 'AlreadyRegistered', { programId: ours })).toBe(false);
    expect(isTagRegistryError(sendTransactionError(failedLogs(ours)), 'AlreadyRegistered', { programId: PROGRAM_ID })).toBe(true);

    const rpc = { InstructionError: [1, { Custom: code }] };
    const programs = [SystemProgram.programId, PROGRAM_ID];
    expect(isTagRegistryError(rpc, 'AlreadyRegistered', { programId: ours })).toBe(false);
    expect(isTagRegistryError(rpc, 'AlreadyRegistered', { programId: ours, instructionProgramIds: programs })).toBe(true);
    expect(isTagRegistryError(rpc, 'AlreadyRegistered', { programId: ours, instructionProgramIds: programs.slice().reverse() })).toBe(false);
  });

  it('takes the first failing program in the logs (the origin, not the caller it propagated through)', () => {
    const logs = [`Program ${ours} invoke [1]`, `Program ${other} invoke [2]`, `Program ${other} failed: custom program error: ${hex}`, `Program ${ours} failed: custom program error: ${hex}`];
    expect(isTagRegistryError({ logs }, 'AlreadyRegistered', { programId: ours })).toBe(false);
    expect(isTagRegistryError({ logs }, 'AlreadyRegistered', { programId: other })).toBe(true);
  });
});
