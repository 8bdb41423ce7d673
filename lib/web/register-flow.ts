/**
 * The register page's steps as a pure state machine (DESIGN.md "Web", "Register"): build
 * (server) → wallet signs → send → confirm → index (POST /v1/sync) → done. Every failure names
 * its kind, a message for the person, and the step a retry resumes at. The page runs the
 * side effects; this file decides what happens next, so it is tested without a browser.
 */

export const REGISTER_STEPS = ['building', 'signing', 'sending', 'confirming', 'indexing'] as const;
export type RegisterStep = (typeof REGISTER_STEPS)[number];

export const STEP_LABELS: Readonly<Record<RegisterStep, string>> = {
  building: 'Building the transaction',
  signing: 'Waiting for your wallet',
  sending: 'Sending it to the cluster',
  confirming: 'Confirming on chain',
  indexing: 'Indexing your profile',
};

export type FailureKind =
  | 'wallet-rejected'
  | 'wallet-unavailable'
  | 'blockhash-expired'
  | 'tag-taken'
  | 'insufficient-funds'
  | 'cluster-down'
  | 'not-signed-in'
  | 'rate-limited'
  | 'transaction-failed'
  | 'index-pending'
  | 'unknown';

export interface Failure {
  kind: FailureKind;
  message: string;
}

export type RegisterState =
  | { status: 'idle' }
  | { status: 'running'; step: RegisterStep }
  | { status: 'failed'; step: RegisterStep; failure: Failure; retryAt: RegisterStep | null }
  | { status: 'done' };

export type RegisterEvent =
  | { type: 'start' }
  | { type: 'stepDone'; step: RegisterStep }
  | { type: 'fail'; step: RegisterStep; failure: Failure }
  | { type: 'retry'; have: RegisterProgress }
  | { type: 'reset' };

export const INITIAL_REGISTER_STATE: RegisterState = { status: 'idle' };

/**
 * Where a retry resumes after a failure, or null when retrying cannot help (the tag is
 * gone, the session ended): the person changes the form or signs in, then starts again.
 */
export function retryStepFor(step: RegisterStep, kind: FailureKind): RegisterStep | null {
  switch (kind) {
    case 'tag-taken':
    case 'not-signed-in':
      return null;
    case 'blockhash-expired':
    case 'insufficient-funds':
    case 'transaction-failed':
      return 'building'; // a fresh transaction with a fresh blockhash
    case 'wallet-rejected':
    case 'wallet-unavailable':
      return step === 'building' ? 'building' : 'signing';
    default:
      return step; // the cluster, the indexer or the network: the same step again
  }
}

/** The next state; an event that does not fit the current state (a late callback) changes nothing. */
export function registerReducer(state: RegisterState, event: RegisterEvent): RegisterState {
  switch (event.type) {
    case 'start':
      return state.status === 'running' ? state : { status: 'running', step: 'building' };
    case 'stepDone': {
      if (state.status !== 'running' || state.step !== event.step) return state;
      const next = REGISTER_STEPS[REGISTER_STEPS.indexOf(event.step) + 1];
      return next ? { status: 'running', step: next } : { status: 'done' };
    }
    case 'fail':
      if (state.status !== 'running' || state.step !== event.step) return state;
      return { status: 'failed', step: event.step, failure: event.failure, retryAt: retryStepFor(event.step, event.failure.kind) };
    case 'retry':
      return state.status === 'failed' && state.retryAt
        ? { status: 'running', step: resumableStep(state.retryAt, event.have) }
        : state;
    case 'reset':
      return state.status === 'running' ? state : INITIAL_REGISTER_STATE;
  }
}

/** What the page holds between steps; a step whose input is missing resumes earlier. */
export interface RegisterProgress {
  built: boolean;
  signed: boolean;
  signature: boolean;
}

/** The earliest step at or before `step` whose inputs are all present. */
export function resumableStep(step: RegisterStep, have: RegisterProgress): RegisterStep {
  const needs: Record<RegisterStep, boolean> = {
    building: true,
    signing: have.built,
    sending: have.built && have.signed,
    confirming: have.built && have.signed && have.signature,
    indexing: have.signature,
  };
  for (let i = REGISTER_STEPS.indexOf(step); i > 0; i--) {
    if (needs[REGISTER_STEPS[i]]) return REGISTER_STEPS[i];
  }
  return 'building';
}

/** Per step, where each step is in the list the page shows. */
export type StepStatus = 'pending' | 'active' | 'done' | 'failed';

export function stepStatuses(state: RegisterState): Record<RegisterStep, StepStatus> {
  const current = state.status === 'running' || state.status === 'failed' ? REGISTER_STEPS.indexOf(state.step) : -1;
  const out = {} as Record<RegisterStep, StepStatus>;
  REGISTER_STEPS.forEach((step, i) => {
    if (state.status === 'done') out[step] = 'done';
    else if (state.status === 'idle' || i > current) out[step] = 'pending';
    else if (i < current) out[step] = 'done';
    else out[step] = state.status === 'failed' ? 'failed' : 'active';
  });
  return out;
}

const ALREADY_REGISTERED_CODE = 6012; // lib/registry/errors.ts AlreadyRegistered

/** Error-ish values from the wallet adapter, web3.js, fetch and our server actions. */
interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  error?: unknown;
  cause?: unknown;
  logs?: unknown;
}

function describe(err: unknown, depth = 0): string {
  if (err === null || err === undefined || depth > 3) return '';
  if (typeof err !== 'object') return String(err);
  const e = err as ErrorLike;
  const parts = [e.name, e.message, e.code].filter((p) => p !== undefined && p !== '').map(String);
  if (Array.isArray(e.logs)) parts.push(e.logs.join(' '));
  return [parts.join(': '), describe(e.error, depth + 1), describe(e.cause, depth + 1)].filter(Boolean).join(' | ');
}

/** Server-action and /v1 error codes (lib/api/errors.ts) → failure kinds. */
const CODE_KINDS: Readonly<Record<string, FailureKind>> = {
  conflict: 'tag-taken',
  unauthorized: 'not-signed-in',
  service_unavailable: 'cluster-down',
  rate_limited: 'rate-limited',
  index_pending: 'index-pending',
};

export const FAILURE_MESSAGES: Readonly<Record<FailureKind, string>> = {
  'wallet-rejected': 'You declined the request in your wallet. Nothing was sent.',
  'wallet-unavailable': 'The wallet is not connected or cannot sign transactions. Connect it and try again.',
  'blockhash-expired': 'The transaction expired before it landed (its blockhash is too old). A retry builds a fresh one.',
  'tag-taken': 'Someone registered this tag in the meantime. Choose another one.',
  'insufficient-funds': 'Your wallet does not hold enough SOL for the fee and the account rent.',
  'cluster-down': 'The Solana cluster cannot be reached right now.',
  'not-signed-in': 'Your session has ended. Sign in with your wallet again.',
  'rate-limited': 'Too many requests right now. Wait a moment, then retry.',
  'transaction-failed': 'The transaction landed but failed on chain; nothing was registered.',
  'index-pending': 'The transaction landed but is not final yet, so the profile is not indexed. Retry in a moment.',
  unknown: 'Something went wrong.',
};

/**
 * Names the failure of `step` from whatever was thrown or returned: an ActionError
 * `{ code, message }`, a wallet-adapter error (its cause holds the wallet's own error, 4001
 * for a refusal), a web3.js SendTransactionError (its logs), a fetch TypeError.
 */
export function classifyFailure(step: RegisterStep, err: unknown): Failure {
  const e = (err ?? {}) as ErrorLike;
  const text = describe(err);
  const codeKind = typeof e.code === 'string' ? CODE_KINDS[e.code] : undefined;
  let kind: FailureKind = 'unknown';
  if (codeKind) kind = codeKind;
  else if (/\b4001\b|reject|declin|denied|cancel/i.test(text)) kind = 'wallet-rejected';
  else if (/WalletNotConnected|WalletNotReady|WalletDisconnected|does not support signing/i.test(text)) kind = 'wallet-unavailable';
  else if (/blockhash not found|BlockheightExceeded|block height exceeded|has expired/i.test(text)) kind = 'blockhash-expired';
  else if (
    new RegExp(`custom program error: 0x${ALREADY_REGISTERED_CODE.toString(16)}\\b|AlreadyRegistered|already in use|"Custom":${ALREADY_REGISTERED_CODE}\\b`, 'i').test(text)
  ) kind = 'tag-taken';
  else if (/insufficient (funds|lamports)|no record of a prior credit|InsufficientFundsForRent/i.test(text)) kind = 'insufficient-funds';
  else if (/failed to fetch|fetch failed|NetworkError|ECONNREFUSED|cluster-unreachable|\b50[234]\b|Load failed/i.test(text)) kind = 'cluster-down';
  const detail = typeof e.message === 'string' && e.message ? e.message : '';
  const message = kind === 'unknown' && detail ? detail : FAILURE_MESSAGES[kind];
  return { kind, message: step === 'indexing' && kind === 'cluster-down' ? `${message} The transaction itself has landed.` : message };
}
