// tagRegistryErrorOf / hasTagRegistryError against the error values each client really
// produces: a LiteSVM failure from the program itself, the SendTransactionError a v1 wallet
// adapter throws in the browser, the RPC's JSON shape, kit's SolanaError, and wrappers around
// them. Matched by code only.
import { SolanaError, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  getTagRegistryErrorMessage,
  hasTagRegistryError,
  TAG_REGISTRY_ERROR__ALREADY_REGISTERED,
  TAG_REGISTRY_ERROR__TAG_RELEASED,
  TAG_REGISTRY_ERROR__TAG_RESTING,
  TAG_REGISTRY_ERROR__WALLET_ACCOUNT_MISMATCH,
  TAG_REGISTRY_ERROR__WALLET_ACCOUNT_MISSING,
  TAG_REGISTRY_ERROR__WALLET_NOT_SIGNER,
  TAG_REGISTRY_ERROR__WALLET_NOT_SYSTEM_OWNED,
  TAG_REGISTRY_ERROR__TAG_TOO_SHORT,
  TAG_REGISTRY_ERROR_CODES,
  tagRegistryErrorOf,
} from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { SYSTEM_PROGRAM_ADDRESS } from '@/program/deploy/loader-v3';
import { fundedKeypair, generateSigner, PROGRAM_ID, send, startSvm } from '@/program/litesvm-harness';
import { REGISTRY_ERRORS } from './idl';
import { PAYOUT_AND_REST_REFUSALS } from './refusal-scenarios';

const ours = PROGRAM_ID;
const other = generateSigner().address;
const code = TAG_REGISTRY_ERROR__ALREADY_REGISTERED;
const hex = `0x${code.toString(16)}`;

function failedLogs(program: string) {
  return [
    `Program ${program} invoke [1]`,
    `Program log: AnchorError occurred. Error Code: AlreadyRegistered. Error Number: 6012. Error Message: Tag is already registered.`,
    `Program ${program} failed: custom program error: ${hex}`,
  ];
}

/**
 * What web3.js v1's SendTransactionError holds (the wallet boundary's wallet-adapter throws
 * it; the server no longer loads v1): the simulation's message and logs as own fields, the
 * logs again in its message text, and `transactionError` and `logs` getters over them.
 */
function sendTransactionError(logs: string[] | undefined) {
  const transactionMessage = `Transaction simulation failed: Error processing Instruction 0: custom program error: ${hex}`;
  const logsText = logs ? `Logs: \n${JSON.stringify(logs.slice(-10), null, 2)}. ` : '';
  const error = Object.assign(new Error(`Simulation failed. \nMessage: ${transactionMessage}. \n${logsText}`), {
    signature: '',
    transactionMessage,
    transactionLogs: logs,
  });
  return Object.defineProperties(error, {
    transactionError: { get: () => ({ message: transactionMessage, logs }) },
    logs: { get: () => logs },
  });
}

describe('tagRegistryErrorOf', () => {
  it('knows every code of the IDL, and no other', () => {
    expect([...TAG_REGISTRY_ERROR_CODES].sort()).toEqual(REGISTRY_ERRORS.map((e) => e.code));
  });

  it('reads a real LiteSVM failure of the program', () => {
    const svm = startSvm();
    const owner = fundedKeypair(svm);
    const ix = () =>
      registerTagInstruction({
        programAddress: PROGRAM_ID,
        tag: 'alice',
        owner: owner.address,
        wallet: owner.address,
        feePayer: owner.address,
      });
    send(svm, [ix()], owner.address, [owner]);
    const failed = send(svm, [ix()], owner.address, [owner]);
    expect(tagRegistryErrorOf(failed)).toBe(code);
    expect(hasTagRegistryError(failed, code, { programAddress: PROGRAM_ID })).toBe(true);
    expect(hasTagRegistryError(failed, TAG_REGISTRY_ERROR__TAG_TOO_SHORT)).toBe(false);
  });

  it.each([
    ['SendTransactionError with logs', () => sendTransactionError(failedLogs(ours))],
    ['RPC InstructionError', () => ({ InstructionError: [0, { Custom: code }] })],
    [
      'a confirmation result { value: { err } }',
      () => ({ value: { err: { InstructionError: [0, { Custom: code }] } } }),
    ],
    [
      'a simulation result { err, logs }',
      () => ({ err: { InstructionError: [0, { Custom: code }] }, logs: failedLogs(ours) }),
    ],
    ['kit SolanaError', () => new SolanaError(SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM, { code, index: 0 })],
    [
      'a wallet adapter error wrapping one',
      () => Object.assign(new Error('Unexpected error'), { error: sendTransactionError(failedLogs(ours)) }),
    ],
    ['an Error with a cause', () => new Error('send failed', { cause: { InstructionError: [0, { Custom: code }] } })],
  ])('recognises %s by code', (_case, make) => {
    expect(tagRegistryErrorOf(make())).toBe(code);
    expect(hasTagRegistryError(make(), code)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', `custom program error: ${hex}`],
    ['a SendTransactionError whose only trace of the code is its message text', sendTransactionError(undefined)],
    ['a code outside the table', { InstructionError: [0, { Custom: 42 }] }],
    ['an instruction error without a code', { InstructionError: [0, 'InvalidAccountData'] }],
    ['a message that only names the error', new Error('AlreadyRegistered: Tag is already registered')],
  ])('finds nothing in %s', (_case, value) => {
    expect(tagRegistryErrorOf(value)).toBeNull();
  });

  it('with programAddress, counts only codes traced to our program', () => {
    expect(hasTagRegistryError(sendTransactionError(failedLogs(other)), code)).toBe(true);
    expect(hasTagRegistryError(sendTransactionError(failedLogs(other)), code, { programAddress: ours })).toBe(false);
    expect(hasTagRegistryError(sendTransactionError(failedLogs(ours)), code, { programAddress: PROGRAM_ID })).toBe(
      true,
    );

    const rpc = { InstructionError: [1, { Custom: code }] };
    const programs = [SYSTEM_PROGRAM_ADDRESS, PROGRAM_ID];
    expect(hasTagRegistryError(rpc, code, { programAddress: ours })).toBe(false);
    expect(hasTagRegistryError(rpc, code, { programAddress: ours, instructionPrograms: programs })).toBe(true);
    expect(
      hasTagRegistryError(rpc, code, { programAddress: ours, instructionPrograms: programs.slice().reverse() }),
    ).toBe(false);
  });

  it('takes the first failing program in the logs (the origin, not the caller it propagated through)', () => {
    const logs = [
      `Program ${ours} invoke [1]`,
      `Program ${other} invoke [2]`,
      `Program ${other} failed: custom program error: ${hex}`,
      `Program ${ours} failed: custom program error: ${hex}`,
    ];
    expect(hasTagRegistryError({ logs }, code, { programAddress: ours })).toBe(false);
    expect(hasTagRegistryError({ logs }, code, { programAddress: other })).toBe(true);
  });
});

describe('the Codama client names each error the payout and rest rules added', () => {
  /** The generated constant for each new error, spelled by hand: a rename in the IDL fails the type-check here. */
  const GENERATED: Record<string, number> = {
    WalletNotSigner: TAG_REGISTRY_ERROR__WALLET_NOT_SIGNER,
    WalletAccountMismatch: TAG_REGISTRY_ERROR__WALLET_ACCOUNT_MISMATCH,
    WalletNotSystemOwned: TAG_REGISTRY_ERROR__WALLET_NOT_SYSTEM_OWNED,
    WalletAccountMissing: TAG_REGISTRY_ERROR__WALLET_ACCOUNT_MISSING,
    TagResting: TAG_REGISTRY_ERROR__TAG_RESTING,
    TagReleased: TAG_REGISTRY_ERROR__TAG_RELEASED,
  };

  it('covers every scenario', () => {
    expect(PAYOUT_AND_REST_REFUSALS.map(([name]) => name).sort()).toEqual(Object.keys(GENERATED).sort());
  });

  it.each(PAYOUT_AND_REST_REFUSALS)('%s: a real failure reads as its generated code and message', (name, fail) => {
    const { code, msg } = REGISTRY_ERRORS.find((e) => e.name === name)!;
    expect(GENERATED[name]).toBe(code);
    const failed = fail();
    expect(tagRegistryErrorOf(failed, { programAddress: ours })).toBe(GENERATED[name]);
    expect(getTagRegistryErrorMessage(GENERATED[name] as Parameters<typeof getTagRegistryErrorMessage>[0])).toBe(msg);
  });
});
