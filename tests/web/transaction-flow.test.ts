import { WalletDisconnectedError, WalletSignTransactionError } from '@solana/wallet-adapter-base';
import { describe, expect, it } from 'vitest';
import {
  BlockHeightExceededError,
  IndexPendingError,
  RpcError,
  ServiceError,
  TransactionFailedError,
  TransactionRefusedError,
  WalletMismatchError,
  WalletNotConnectedError,
} from '@/lib/web/browser/client-errors';
import { REGISTER_FAILURES, TAG_TAKEN_MESSAGE } from '@/lib/web/browser/register-flow';
import {
  DEFAULT_STEP_LABELS,
  FAILURE_MESSAGES,
  FLOW_STEPS,
  INITIAL_FLOW_STATE,
  classifyFailure,
  flowReducer,
  nextStep,
  resumableStep,
  retryStepFor,
  statusLine,
  stepStatuses,
  type FailureKind,
  type FlowState,
  type FlowStep,
} from '@/lib/web/browser/transaction-flow';

const ALL = { built: true, signed: true, signature: true };
const NONE = { built: false, signed: false, signature: false };

function runThrough(steps: readonly FlowStep[]): FlowState {
  let state = flowReducer(INITIAL_FLOW_STATE, { type: 'start' });
  for (const step of steps) state = flowReducer(state, { type: 'stepDone', step });
  return state;
}

describe('flowReducer', () => {
  it('walks building → signing → sending → confirming → indexing → done', () => {
    let state = flowReducer(INITIAL_FLOW_STATE, { type: 'start' });
    const seen: string[] = [];
    while (state.status === 'running') {
      seen.push(state.step);
      state = flowReducer(state, { type: 'stepDone', step: state.step });
    }
    expect(seen).toEqual([...FLOW_STEPS]);
    expect(state).toEqual({ status: 'done' });
  });

  it('ignores a late callback for a step that is not the current one', () => {
    const state = runThrough(['building']);
    expect(flowReducer(state, { type: 'stepDone', step: 'building' })).toBe(state);
    expect(flowReducer(state, { type: 'fail', step: 'building', failure: { kind: 'unknown', message: 'x' } })).toBe(
      state,
    );
  });

  it('does not restart or reset while a step runs', () => {
    const state = runThrough([]);
    expect(flowReducer(state, { type: 'start' })).toBe(state);
    expect(flowReducer(state, { type: 'reset' })).toBe(state);
  });

  it('records the failure and where a retry resumes', () => {
    const state = flowReducer(runThrough(['building']), {
      type: 'fail',
      step: 'signing',
      failure: { kind: 'wallet-rejected', message: 'no' },
    });
    expect(state).toEqual({
      status: 'failed',
      step: 'signing',
      failure: { kind: 'wallet-rejected', message: 'no' },
      retryAt: 'signing',
    });
    expect(flowReducer(state, { type: 'retry', have: { built: true, signed: false, signature: false } })).toEqual({
      status: 'running',
      step: 'signing',
    });
  });

  it('retries from building when what the resumed step needs is gone', () => {
    const failed = flowReducer(runThrough(['building', 'signing', 'sending']), {
      type: 'fail',
      step: 'confirming',
      failure: { kind: 'cluster-down', message: 'down' },
    });
    expect(flowReducer(failed, { type: 'retry', have: NONE })).toEqual({ status: 'running', step: 'building' });
    expect(flowReducer(failed, { type: 'retry', have: ALL })).toEqual({ status: 'running', step: 'confirming' });
  });

  it('offers no retry when the chain refuses the action (the tag was taken meanwhile)', () => {
    const failed = flowReducer(runThrough([]), {
      type: 'fail',
      step: 'building',
      failure: { kind: 'conflict', message: 't' },
    });
    expect(failed).toMatchObject({ status: 'failed', retryAt: null });
    expect(flowReducer(failed, { type: 'retry', have: ALL })).toBe(failed);
    expect(flowReducer(failed, { type: 'reset' })).toEqual(INITIAL_FLOW_STATE);
  });
});

describe('retryStepFor', () => {
  const cases: [FlowStep, FailureKind, FlowStep | null][] = [
    ['signing', 'wallet-rejected', 'signing'],
    ['sending', 'blockhash-expired', 'building'],
    ['confirming', 'blockhash-expired', 'building'],
    ['building', 'conflict', null],
    ['sending', 'conflict', null],
    ['confirming', 'forbidden', null],
    ['building', 'not-found', null],
    ['building', 'not-signed-in', null],
    ['sending', 'cluster-down', 'sending'],
    ['confirming', 'cluster-down', 'confirming'],
    ['sending', 'insufficient-funds', 'building'],
    ['confirming', 'transaction-failed', 'building'],
    ['indexing', 'index-pending', 'indexing'],
    ['building', 'rate-limited', 'building'],
  ];
  it.each(cases)('%s failing with %s resumes at %s', (step, kind, expected) => {
    expect(retryStepFor(step, kind)).toBe(expected);
  });
});

describe('resumableStep', () => {
  it.each([
    ['sending', { built: true, signed: false, signature: false }, 'signing'],
    ['indexing', { built: false, signed: false, signature: true }, 'indexing'],
    ['confirming', { built: true, signed: true, signature: false }, 'sending'],
    ['signing', NONE, 'building'],
  ] as const)('%s with %o → %s', (step, have, expected) => {
    expect(resumableStep(step, have)).toBe(expected);
  });
});

describe('stepStatuses', () => {
  it('marks steps before the current one done and the current one active or failed', () => {
    const running = runThrough(['building', 'signing']);
    expect(stepStatuses(running)).toEqual({
      building: 'done',
      signing: 'done',
      sending: 'active',
      confirming: 'pending',
      indexing: 'pending',
    });
    const failed = flowReducer(running, {
      type: 'fail',
      step: 'sending',
      failure: { kind: 'cluster-down', message: '' },
    });
    expect(stepStatuses(failed).sending).toBe('failed');
    expect(Object.values(stepStatuses({ status: 'done' }))).toEqual(FLOW_STEPS.map(() => 'done'));
    expect(Object.values(stepStatuses(INITIAL_FLOW_STATE))).toEqual(FLOW_STEPS.map(() => 'pending'));
  });
});

describe('nextStep and statusLine', () => {
  it('walks the steps in order and ends after indexing', () => {
    expect(FLOW_STEPS.map(nextStep)).toEqual(['signing', 'sending', 'confirming', 'indexing', null]);
  });

  it.each([
    [INITIAL_FLOW_STATE, ''],
    [{ status: 'running', step: 'signing' }, 'Waiting for your wallet…'],
    [
      { status: 'failed', step: 'sending', failure: { kind: 'cluster-down', message: '' }, retryAt: 'sending' },
      'Sending it to the cluster: failed',
    ],
    [{ status: 'done' }, 'Done'],
  ] as [FlowState, string][])('%o reads %s', (state, line) => {
    expect(statusLine(state, DEFAULT_STEP_LABELS)).toBe(line);
  });
});

const PROGRAM = 'TagReg1stry11111111111111111111111111111111';
/**
 * What lib/web/browser/rpc.ts throws when the cluster's preflight meets the program's
 * AlreadyRegistered (6012 = 0x177c): the JSON-RPC error's code, message, logs and err.
 */
const alreadyRegisteredInPreflight = new RpcError(
  -32002,
  'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x177c',
  [`Program ${PROGRAM} invoke [1]`, `Program ${PROGRAM} failed: custom program error: 0x177c`],
  { InstructionError: [0, { Custom: 6012 }] },
);
/** The same refusal by an RPC that sends no logs: the registry's code is found in `err`. */
const alreadyRegisteredWithoutLogs = new RpcError(
  -32002,
  'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x177c',
  undefined,
  { InstructionError: [0, { Custom: 6012 }] },
);

describe('classifyFailure', () => {
  const rejection = new WalletSignTransactionError('User rejected the request.', { code: 4001 });
  const cases: [string, FlowStep, unknown, FailureKind][] = [
    ['a wallet refusal (4001)', 'signing', rejection, 'wallet-rejected'],
    ['a wallet refusal by its words', 'signing', new Error('Transaction declined by user'), 'wallet-rejected'],
    ['a refusal the flow named', 'signing', new TransactionRefusedError({ cause: rejection }), 'wallet-rejected'],
    [
      'a 409 from the build',
      'building',
      new ServiceError('conflict', 'This tag is taken, reserved or blocked.'),
      'conflict',
    ],
    ['a 403 from a builder', 'building', new ServiceError('forbidden', 'Not yours.'), 'forbidden'],
    ['a 503 from the build', 'building', new ServiceError('service_unavailable', 'down'), 'cluster-down'],
    ['no session', 'building', new ServiceError('unauthorized', 'Sign in'), 'not-signed-in'],
    ['a 429', 'indexing', new ServiceError('rate_limited', 'slow down', 429), 'rate-limited'],
    ["the cluster's RPC still answering 429", 'confirming', new RpcError(429, 'answered 429'), 'rate-limited'],
    [
      'an unknown blockhash',
      'sending',
      new Error('Transaction simulation failed: Blockhash not found'),
      'blockhash-expired',
    ],
    ['an expired block height', 'confirming', new BlockHeightExceededError('abc'), 'blockhash-expired'],
    [
      'no funds',
      'sending',
      new Error('Attempt to debit an account but found no record of a prior credit.'),
      'insufficient-funds',
    ],
    ['a dead cluster', 'sending', new TypeError('Failed to fetch'), 'cluster-down'],
    ['a disconnected wallet', 'signing', new WalletNotConnectedError(), 'wallet-unavailable'],
    ["wallet-adapter's disconnected wallet", 'signing', new WalletDisconnectedError(), 'wallet-unavailable'],
    ['another wallet than the session', 'signing', new WalletMismatchError(PROGRAM, 'x'), 'wallet-unavailable'],
    ['the indexer still waiting', 'indexing', new IndexPendingError(), 'index-pending'],
    [
      'a failed transaction',
      'confirming',
      new TransactionFailedError({ InstructionError: [0, { Custom: 6015 }] }),
      'transaction-failed',
    ],
    ['a program error the flow does not name', 'sending', alreadyRegisteredInPreflight, 'unknown'],
  ];
  it.each(cases)('names %s', (_name, step, err, kind) => {
    expect(classifyFailure(step, err).kind).toBe(kind);
  });

  describe("with the register flow's program errors (matched by code)", () => {
    it.each([
      ["in preflight (the RPC error's logs)", 'sending', alreadyRegisteredInPreflight],
      ["in preflight (the RPC error's err, no logs)", 'sending', alreadyRegisteredWithoutLogs],
      [
        "on confirmation (the cluster's InstructionError)",
        'confirming',
        new TransactionFailedError({ InstructionError: [0, { Custom: 6012 }] }),
      ],
    ] as [string, FlowStep, unknown][])('AlreadyRegistered %s means the tag was taken', (_name, step, err) => {
      expect(classifyFailure(step, err, REGISTER_FAILURES)).toEqual({ kind: 'conflict', message: TAG_TAKEN_MESSAGE });
    });

    it('does not read another code as AlreadyRegistered, nor its words', () => {
      expect(
        classifyFailure(
          'confirming',
          new TransactionFailedError({ InstructionError: [0, { Custom: 6011 }] }),
          REGISTER_FAILURES,
        ).kind,
      ).toBe('transaction-failed');
      expect(classifyFailure('sending', new Error('Tag is already registered'), REGISTER_FAILURES).kind).toBe(
        'unknown',
      );
    });
  });

  it('shows the fixed message for a known kind and the error text for an unknown one', () => {
    expect(classifyFailure('signing', rejection).message).toBe(FAILURE_MESSAGES['wallet-rejected']);
    expect(classifyFailure('building', new ServiceError('invalid_tag', 'The tag must be 3 to 32 characters.'))).toEqual(
      {
        kind: 'unknown',
        message: 'The tag must be 3 to 32 characters.',
      },
    );
    expect(classifyFailure('building', undefined)).toEqual({ kind: 'unknown', message: FAILURE_MESSAGES.unknown });
  });

  it('names both keys when the connected wallet is not the signed-in one', () => {
    const err = new WalletMismatchError(
      '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      'So11111111111111111111111111111111111111112',
    );
    expect(classifyFailure('signing', err).message).toBe(
      'You signed in as 9xQe…VFin, but the connected wallet is So11…1112. Switch back, then retry.',
    );
  });

  it("shows the chain's error of a failed transaction", () => {
    const failure = classifyFailure(
      'confirming',
      new TransactionFailedError({ InstructionError: [0, { Custom: 6015 }] }),
    );
    expect(failure.message).toBe(
      'The transaction failed on chain ({"InstructionError":[0,{"Custom":6015}]}); nothing changed.',
    );
  });

  it('says the transaction landed when only indexing could not reach the server', () => {
    expect(classifyFailure('indexing', new TypeError('Failed to fetch')).message).toMatch(/has landed/);
  });
});
