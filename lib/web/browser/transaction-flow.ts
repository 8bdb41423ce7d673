import 'client-only';
/**
 * The steps of every on-chain action the pages run (DESIGN.md "Web"; register now, the tag
 * lifecycle next) as a pure state machine: build (server) → the wallet signs → send →
 * confirm → live (POST /v1/sync) → done. Every failure names its kind, a message for the
 * person, and the step a retry resumes at. components/transaction/useTransactionFlow.ts runs
 * the side effects; this file decides what happens next, so it is tested without a browser.
 */
import { hasTagRegistryError, type TagRegistryError } from '@/packages/tag-registry/src';
import { isUserRejection } from './api-client';
import {
  AnotherSignerNeededError,
  BlockHeightExceededError,
  IndexPendingError,
  RpcError,
  ServiceError,
  TransactionFailedError,
  TransactionRefusedError,
  WalletCannotSignError,
  WalletMismatchError,
  WalletNotConnectedError,
} from './client-errors';
import { shortKey } from './format';

export const FLOW_STEPS = ['building', 'signing', 'sending', 'confirming', 'indexing'] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];

/** What each step is called on screen; a flow may rename any of them. */
export const DEFAULT_STEP_LABELS: Readonly<Record<FlowStep, string>> = {
  building: 'Building the transaction',
  signing: 'Waiting for your wallet',
  sending: 'Sending it to the cluster',
  confirming: 'Confirming on chain',
  indexing: 'Updating your public page',
};

export type FailureKind =
  | 'wallet-rejected'
  | 'wallet-unavailable'
  | 'another-signer'
  | 'blockhash-expired'
  | 'conflict'
  | 'forbidden'
  | 'not-found'
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

export type FlowState =
  | { status: 'idle' }
  | { status: 'running'; step: FlowStep }
  | { status: 'failed'; step: FlowStep; failure: Failure; retryAt: FlowStep | null }
  | { status: 'done' };

export type FlowEvent =
  | { type: 'start' }
  | { type: 'stepDone'; step: FlowStep }
  | { type: 'fail'; step: FlowStep; failure: Failure }
  | { type: 'retry'; have: FlowProgress }
  | { type: 'reset' };

export const INITIAL_FLOW_STATE: FlowState = { status: 'idle' };

/** The step after `step`, or null after the last one. */
export function nextStep(step: FlowStep): FlowStep | null {
  return FLOW_STEPS[FLOW_STEPS.indexOf(step) + 1] ?? null;
}

/**
 * Where a retry resumes after a failure, or null when retrying cannot help (the chain refuses
 * the action, the session ended): the person changes the form or signs in, then starts again.
 */
export function retryStepFor(step: FlowStep, kind: FailureKind): FlowStep | null {
  switch (kind) {
    case 'conflict':
    case 'forbidden':
    case 'not-found':
    case 'not-signed-in':
      return null;
    case 'blockhash-expired':
    case 'insufficient-funds':
    case 'transaction-failed':
      return 'building'; // a fresh transaction with a fresh blockhash
    case 'another-signer':
      return 'signing'; // the signatures so far are kept
    case 'wallet-rejected':
    case 'wallet-unavailable':
      return step === 'building' ? 'building' : 'signing';
    default:
      return step; // the cluster, the indexer or the network: the same step again
  }
}

/** The next state; an event that does not fit the current state (a late callback) changes nothing. */
export function flowReducer(state: FlowState, event: FlowEvent): FlowState {
  switch (event.type) {
    case 'start':
      return state.status === 'running' ? state : { status: 'running', step: 'building' };
    case 'stepDone': {
      if (state.status !== 'running' || state.step !== event.step) return state;
      const next = nextStep(event.step);
      return next ? { status: 'running', step: next } : { status: 'done' };
    }
    case 'fail':
      if (state.status !== 'running' || state.step !== event.step) return state;
      return {
        status: 'failed',
        step: event.step,
        failure: event.failure,
        retryAt: retryStepFor(event.step, event.failure.kind),
      };
    case 'retry':
      return state.status === 'failed' && state.retryAt
        ? { status: 'running', step: resumableStep(state.retryAt, event.have) }
        : state;
    case 'reset':
      return state.status === 'running' ? state : INITIAL_FLOW_STATE;
  }
}

/** What the page holds between steps; a step whose input is missing resumes earlier. */
export interface FlowProgress {
  built: boolean;
  signed: boolean;
  signature: boolean;
}

/** The earliest step at or before `step` whose inputs are all present. */
export function resumableStep(step: FlowStep, have: FlowProgress): FlowStep {
  const needs: Record<FlowStep, boolean> = {
    building: true,
    signing: have.built,
    sending: have.built && have.signed,
    confirming: have.built && have.signed && have.signature,
    indexing: have.signature,
  };
  for (let i = FLOW_STEPS.indexOf(step); i > 0; i--) {
    if (needs[FLOW_STEPS[i]]) return FLOW_STEPS[i];
  }
  return 'building';
}

/** Per step, where each step is in the list the page shows. */
export type StepStatus = 'pending' | 'active' | 'done' | 'failed';

export function stepStatuses(state: FlowState): Record<FlowStep, StepStatus> {
  const current = state.status === 'running' || state.status === 'failed' ? FLOW_STEPS.indexOf(state.step) : -1;
  const out = {} as Record<FlowStep, StepStatus>;
  FLOW_STEPS.forEach((step, i) => {
    if (state.status === 'done') out[step] = 'done';
    else if (state.status === 'idle' || i > current) out[step] = 'pending';
    else if (i < current) out[step] = 'done';
    else out[step] = state.status === 'failed' ? 'failed' : 'active';
  });
  return out;
}

/** The line the page announces for `state` (a screen reader hears each step). */
export function statusLine(state: FlowState, labels: Readonly<Record<FlowStep, string>>): string {
  switch (state.status) {
    case 'running':
      return `${labels[state.step]}…`;
    case 'failed':
      return `${labels[state.step]}: failed`;
    case 'done':
      return 'Done';
    case 'idle':
      return '';
  }
}

export const FAILURE_MESSAGES: Readonly<Record<FailureKind, string>> = {
  'wallet-rejected': 'You declined the request in your wallet. Nothing was sent.',
  'wallet-unavailable': 'The wallet is not connected or cannot sign transactions. Connect it and try again.',
  'another-signer': 'Another account must sign this transaction too. Switch to it in your wallet, then continue.',
  'blockhash-expired':
    'The transaction expired before it landed (its blockhash is too old). A retry builds a fresh one.',
  conflict: 'The tag changed in the meantime, so this cannot be done now.',
  forbidden: 'The signed-in wallet may not do this for this tag.',
  'not-found': 'This tag does not exist (any more).',
  'insufficient-funds': 'Your wallet does not hold enough SOL for the fee and the account rent.',
  'cluster-down': 'The Solana cluster cannot be reached right now.',
  'not-signed-in': 'Your session has ended. Sign in with your wallet again.',
  'rate-limited': 'Too many requests right now. Wait a moment, then retry.',
  'transaction-failed': 'The transaction landed but failed on chain; nothing changed.',
  'index-pending': 'The transaction landed but is not final yet, so the page is not updated. Retry in a moment.',
  unknown: 'Something went wrong.',
};

/** What a flow adds to the classification: its program errors and its own wording. */
export interface FailureOptions {
  /** Registry errors (matched by code through packages/tag-registry's `hasTagRegistryError`) and what they mean here. */
  programErrors?: Partial<Record<TagRegistryError, FailureKind>>;
  /** Messages that replace the default ones for this flow. */
  messages?: Partial<Record<FailureKind, string>>;
}

/** Envelope codes of /v1 and of the server actions (lib/core/errors.ts) → failure kinds. */
const CODE_KINDS: Readonly<Record<string, FailureKind>> = {
  conflict: 'conflict',
  forbidden: 'forbidden',
  not_found: 'not-found',
  unauthorized: 'not-signed-in',
  service_unavailable: 'cluster-down',
  rate_limited: 'rate-limited',
};

/** wallet-adapter's own error classes (their `name`) for a wallet that is gone. */
const WALLET_GONE = new Set(['WalletNotConnectedError', 'WalletNotReadyError', 'WalletDisconnectedError']);

/*
 * The cluster's answers below carry no code of their own (lib/web/browser/rpc.ts passes the RPC's text on),
 * so they are recognised by the RPC's and browsers' fixed wording.
 */
const BLOCKHASH_GONE = /blockhash not found|block height exceeded/i;
const NO_FUNDS = /insufficient (funds|lamports)|no record of a prior credit|InsufficientFundsForRent/i;
const UNREACHABLE = /failed to fetch|fetch failed|NetworkError|ECONNREFUSED|Load failed|\b50[234]\b/i;

function messagesOf(err: unknown, depth = 0): string {
  if (!(err instanceof Error) || depth > 3) return '';
  const logs = (err as { logs?: unknown }).logs;
  return [err.message, Array.isArray(logs) ? logs.join(' ') : '', messagesOf(err.cause, depth + 1)].join(' ');
}

function kindOf(err: unknown, options: FailureOptions): FailureKind {
  if (err instanceof ServiceError) return CODE_KINDS[err.code] ?? 'unknown';
  // The cluster's RPC still answering 429 after lib/web/browser/rpc.ts waited it out.
  if (err instanceof RpcError && err.code === 429) return 'rate-limited';
  if (err instanceof IndexPendingError) return 'index-pending';
  for (const [code, kind] of Object.entries(options.programErrors ?? {})) {
    if (kind && hasTagRegistryError(err, Number(code) as TagRegistryError)) return kind;
  }
  if (err instanceof AnotherSignerNeededError) return 'another-signer';
  if (err instanceof TransactionRefusedError || isUserRejection(err)) return 'wallet-rejected';
  if (
    err instanceof WalletNotConnectedError ||
    err instanceof WalletCannotSignError ||
    err instanceof WalletMismatchError
  ) {
    return 'wallet-unavailable';
  }
  if (err instanceof Error && WALLET_GONE.has(err.name)) return 'wallet-unavailable';
  if (err instanceof BlockHeightExceededError) return 'blockhash-expired';
  if (err instanceof TransactionFailedError) return 'transaction-failed';
  const text = messagesOf(err);
  if (BLOCKHASH_GONE.test(text)) return 'blockhash-expired';
  if (NO_FUNDS.test(text)) return 'insufficient-funds';
  if (err instanceof TypeError || UNREACHABLE.test(text)) return 'cluster-down';
  return 'unknown';
}

/**
 * Names the failure of `step` from what was thrown: our client errors (a ServiceError holds
 * the server's envelope code), wallet-adapter errors (their cause holds the wallet's own
 * error, 4001 for a refusal), registry errors by code, the cluster's RPC errors, a fetch TypeError.
 */
export function classifyFailure(step: FlowStep, err: unknown, options: FailureOptions = {}): Failure {
  const kind = kindOf(err, options);
  let message = options.messages?.[kind] ?? FAILURE_MESSAGES[kind];
  if (err instanceof AnotherSignerNeededError) {
    const who = err.missing.map(shortKey).join(' and ');
    message = err.connected
      ? `The connected account ${shortKey(err.connected)} has nothing to sign here. Switch your wallet to ${who}, then continue.`
      : `Signed. This transaction also needs ${who} (the payout wallet or the owner) to sign: switch to it in your wallet, then continue.`;
  } else if (err instanceof WalletMismatchError) {
    message = `You signed in as ${shortKey(err.sessionKey)}, but the connected wallet is ${shortKey(err.walletKey)}. Switch back, then retry.`;
  } else if (err instanceof WalletCannotSignError || err instanceof TransactionFailedError) {
    if (!options.messages?.[kind]) message = err.message;
  } else if (kind === 'unknown' && err instanceof Error && err.message) {
    message = err.message;
  }
  if (step === 'indexing' && kind === 'cluster-down') message = `${message} The transaction itself has landed.`;
  return { kind, message };
}
