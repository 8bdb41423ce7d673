import { describe, expect, it } from 'vitest';
import {
  FAILURE_MESSAGES,
  INITIAL_REGISTER_STATE,
  REGISTER_STEPS,
  classifyFailure,
  registerReducer,
  resumableStep,
  retryStepFor,
  stepStatuses,
  type FailureKind,
  type RegisterState,
  type RegisterStep,
} from '@/lib/web/register-flow';

const ALL = { built: true, signed: true, signature: true };
const NONE = { built: false, signed: false, signature: false };

function runThrough(steps: readonly RegisterStep[]): RegisterState {
  let state = registerReducer(INITIAL_REGISTER_STATE, { type: 'start' });
  for (const step of steps) state = registerReducer(state, { type: 'stepDone', step });
  return state;
}

describe('registerReducer', () => {
  it('walks building → signing → sending → confirming → indexing → done', () => {
    let state = registerReducer(INITIAL_REGISTER_STATE, { type: 'start' });
    const seen: string[] = [];
    while (state.status === 'running') {
      seen.push(state.step);
      state = registerReducer(state, { type: 'stepDone', step: state.step });
    }
    expect(seen).toEqual([...REGISTER_STEPS]);
    expect(state).toEqual({ status: 'done' });
  });

  it('ignores a late callback for a step that is not the current one', () => {
    const state = runThrough(['building']);
    expect(registerReducer(state, { type: 'stepDone', step: 'building' })).toBe(state);
    expect(registerReducer(state, { type: 'fail', step: 'building', failure: { kind: 'unknown', message: 'x' } })).toBe(state);
  });

  it('does not restart or reset while a step runs', () => {
    const state = runThrough([]);
    expect(registerReducer(state, { type: 'start' })).toBe(state);
    expect(registerReducer(state, { type: 'reset' })).toBe(state);
  });

  it('records the failure and where a retry resumes', () => {
    const state = registerReducer(runThrough(['building']), {
      type: 'fail',
      step: 'signing',
      failure: { kind: 'wallet-rejected', message: 'no' },
    });
    expect(state).toEqual({ status: 'failed', step: 'signing', failure: { kind: 'wallet-rejected', message: 'no' }, retryAt: 'signing' });
    expect(registerReducer(state, { type: 'retry', have: { built: true, signed: false, signature: false } })).toEqual({
      status: 'running',
      step: 'signing',
    });
  });

  it('retries from building when what the resumed step needs is gone', () => {
    const failed = registerReducer(runThrough(['building', 'signing', 'sending']), {
      type: 'fail',
      step: 'confirming',
      failure: { kind: 'cluster-down', message: 'down' },
    });
    expect(registerReducer(failed, { type: 'retry', have: NONE })).toEqual({ status: 'running', step: 'building' });
    expect(registerReducer(failed, { type: 'retry', have: ALL })).toEqual({ status: 'running', step: 'confirming' });
  });

  it('offers no retry when the tag was taken meanwhile', () => {
    const failed = registerReducer(runThrough([]), { type: 'fail', step: 'building', failure: { kind: 'tag-taken', message: 't' } });
    expect(failed).toMatchObject({ status: 'failed', retryAt: null });
    expect(registerReducer(failed, { type: 'retry', have: ALL })).toBe(failed);
    expect(registerReducer(failed, { type: 'reset' })).toEqual(INITIAL_REGISTER_STATE);
  });
});

describe('retryStepFor', () => {
  const cases: [RegisterStep, FailureKind, RegisterStep | null][] = [
    ['signing', 'wallet-rejected', 'signing'],
    ['sending', 'blockhash-expired', 'building'],
    ['confirming', 'blockhash-expired', 'building'],
    ['building', 'tag-taken', null],
    ['sending', 'tag-taken', null],
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
    expect(stepStatuses(running)).toEqual({ building: 'done', signing: 'done', sending: 'active', confirming: 'pending', indexing: 'pending' });
    const failed = registerReducer(running, { type: 'fail', step: 'sending', failure: { kind: 'cluster-down', message: '' } });
    expect(stepStatuses(failed).sending).toBe('failed');
    expect(Object.values(stepStatuses({ status: 'done' }))).toEqual(REGISTER_STEPS.map(() => 'done'));
    expect(Object.values(stepStatuses(INITIAL_REGISTER_STATE))).toEqual(REGISTER_STEPS.map(() => 'pending'));
  });
});

describe('classifyFailure', () => {
  const rejection = { name: 'WalletSignTransactionError', message: 'User rejected the request.', error: { code: 4001 } };
  const cases: [string, RegisterStep, unknown, FailureKind][] = [
    ['a wallet refusal (4001)', 'signing', rejection, 'wallet-rejected'],
    ['a wallet refusal by its words', 'signing', new Error('Transaction declined by user'), 'wallet-rejected'],
    ['a 409 from the build', 'building', { code: 'conflict', message: 'This tag is taken, reserved or blocked.' }, 'tag-taken'],
    ['a 503 from the build', 'building', { code: 'service_unavailable', message: 'down' }, 'cluster-down'],
    ['no session', 'building', { code: 'unauthorized', message: 'Sign in' }, 'not-signed-in'],
    ['a 429', 'indexing', { code: 'rate_limited', message: 'slow down' }, 'rate-limited'],
    [
      'the program saying AlreadyRegistered in preflight',
      'sending',
      { name: 'SendTransactionError', message: 'Simulation failed. Message: Transaction simulation failed: Error processing Instruction 0: custom program error: 0x177c.' },
      'tag-taken',
    ],
    ['an unknown blockhash', 'sending', new Error('Transaction simulation failed: Blockhash not found'), 'blockhash-expired'],
    [
      'an expired block height',
      'confirming',
      { name: 'TransactionExpiredBlockheightExceededError', message: 'Signature abc has expired: block height exceeded.' },
      'blockhash-expired',
    ],
    ['no funds', 'sending', new Error('Attempt to debit an account but found no record of a prior credit.'), 'insufficient-funds'],
    ['a dead cluster', 'sending', new TypeError('Failed to fetch'), 'cluster-down'],
    ['a disconnected wallet', 'signing', { name: 'WalletNotConnectedError', message: '' }, 'wallet-unavailable'],
    ['the indexer still waiting', 'indexing', { code: 'index_pending' }, 'index-pending'],
  ];
  it.each(cases)('names %s', (_name, step, err, kind) => {
    expect(classifyFailure(step, err).kind).toBe(kind);
  });

  it('shows the fixed message for a known kind and the error text for an unknown one', () => {
    expect(classifyFailure('signing', rejection).message).toBe(FAILURE_MESSAGES['wallet-rejected']);
    expect(classifyFailure('building', { code: 'invalid_tag', message: 'The tag must be 3 to 32 characters.' })).toEqual({
      kind: 'unknown',
      message: 'The tag must be 3 to 32 characters.',
    });
    expect(classifyFailure('building', undefined)).toEqual({ kind: 'unknown', message: FAILURE_MESSAGES.unknown });
  });

  it('says the transaction landed when only indexing could not reach the server', () => {
    expect(classifyFailure('indexing', new TypeError('Failed to fetch')).message).toMatch(/has landed/);
  });
});
