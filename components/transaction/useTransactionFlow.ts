'use client';

import { useEffect, useReducer, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Identity } from '@/lib/features/identity/schemas';
import { useSiteWallet, type SiteWallet } from '@/components/wallet/site-wallet-context';
import { unwrapAction, type ActionOutcome } from '@/lib/web/browser/action-outcome';
import { isUserRejection, syncTransaction } from '@/lib/web/browser/api-client';
import {
  AnotherSignerNeededError,
  TransactionRefusedError,
  WalletCannotSignError,
  WalletMismatchError,
  WalletNotConnectedError,
} from '@/lib/web/browser/client-errors';
import {
  INITIAL_FLOW_STATE,
  classifyFailure,
  flowReducer,
  nextStep,
  resumableStep,
  type FailureOptions,
  type FlowState,
  type FlowStep,
} from '@/lib/web/browser/transaction-flow';
import type { WireTransaction } from '@/lib/web/browser/wire-transaction';

/** What a builder answers: POST /v1/register's shape, and the lifecycle builders'. */
export interface BuiltTransaction {
  /** The unsigned transaction, base64 wire format. */
  transaction: string;
  /** Decimal string, as the builders answer it. */
  lastValidBlockHeight: string;
}

/** One run of the flow: how to build its transaction, and what /v1/sync's 404 means. */
export interface TransactionJob {
  /** Calls the page's build action; an error answer fails the build step (as a ServiceError, see `unwrapAction`). */
  build(): Promise<ActionOutcome<BuiltTransaction>>;
  /** The action deletes the tag (release): /v1/sync's 404 then means done, with no identity. */
  goneIsDone?: boolean;
}

/** The flow of one kind of action; `Input` is what a run starts from (a tag to register, a call on a tag). */
export interface TransactionFlow<Input> {
  state: FlowState;
  /** What the last run was started with (what the screens name), or null before the first. */
  started: Input | null;
  /** Once done: the identity as /v1/sync answered it, or null when the tag is gone. */
  live: Identity | null;
  /** The transaction's signature once sent. */
  signature: string | null;
  /** Runs `input`'s job from the first step; false (and nothing happens) while a run is under way. */
  start(input: Input): boolean;
  /** After a failure that allows it: resumes at the step the failure names (or earlier). */
  retry(): void;
  /** Back to idle (not while running). */
  reset(): void;
}

interface Work {
  job: TransactionJob | null;
  /** The build's answer; `tx` is decoded by the wallet's code when signing first needs it. */
  built: { transaction: string; tx: WireTransaction | null; lastValidBlockHeight: number } | null;
  signed: Uint8Array | null;
  signature: string | null;
}

const NO_WORK: Work = { job: null, built: null, signed: null, signature: null };

/**
 * The steps of an on-chain action, headless (lib/web/browser/transaction-flow.ts decides the order
 * and the retries): build (the job's server action), the wallet signs, send through the
 * app's RPC, confirm before the build's lastValidBlockHeight passes, then
 * POST /v1/sync so the page is live. The steps run from the handlers, one after the other,
 * not from an effect: a re-render never starts a step twice.
 *
 * `sessionKey`: the signed-in key; signing refuses a different connected wallet.
 * `failures`: the flow's program errors and wording (keep it a module constant).
 * `jobFor`: how a run's input is built and synced; called once, when the run starts.
 */
export function useTransactionFlow<Input>(
  sessionKey: string | null,
  failures: FailureOptions,
  jobFor: (input: Input) => TransactionJob,
): TransactionFlow<Input> {
  const [state, dispatch] = useReducer(flowReducer, INITIAL_FLOW_STATE);
  const [started, setStarted] = useState<Input | null>(null);
  const [live, setLive] = useState<Identity | null>(null);
  const [signature, setSignature] = useState<string | null>(null);
  const wallet = useSiteWallet();
  const { rpc } = wallet;
  // The wallet as it is when a step runs (it may be switched while the build runs).
  const walletNow = useRef<SiteWallet>(wallet);
  useEffect(() => {
    walletNow.current = wallet;
  }, [wallet]);
  const work = useRef<Work>(NO_WORK);
  const running = useRef(false);

  async function runStep(step: FlowStep, w: Work): Promise<void> {
    switch (step) {
      case 'building': {
        const built = unwrapAction(await w.job!.build());
        w.built = {
          transaction: built.transaction,
          tx: null,
          lastValidBlockHeight: Number(built.lastValidBlockHeight),
        };
        w.signed = null;
        w.signature = null;
        return;
      }
      case 'signing': {
        // Every key the transaction names signs, one connected account after the other: the
        // owner and a payout wallet of its own (either first); the signatures so far are kept.
        const { publicKey, signTransaction, wire } = walletNow.current;
        if (!publicKey || !wire)
          throw new WalletNotConnectedError('Connect a wallet that can sign transactions, then retry.');
        if (!signTransaction) throw new WalletCannotSignError('signTransaction');
        const { keepSignature, signedWireBytes, unsignedSigners } = wire;
        const tx = (w.built!.tx ??= wire.decodeWireTransaction(w.built!.transaction));
        const connected = publicKey.toBase58();
        const missing = unsignedSigners(tx);
        if (!missing.includes(connected)) {
          if (sessionKey && missing.includes(sessionKey)) throw new WalletMismatchError(sessionKey, connected);
          throw new AnotherSignerNeededError(missing, connected);
        }
        let signed: WireTransaction;
        try {
          signed = await signTransaction(tx);
        } catch (err) {
          throw isUserRejection(err) ? new TransactionRefusedError({ cause: err }) : err;
        }
        keepSignature(tx, signed, publicKey);
        const still = unsignedSigners(tx);
        if (still.length) throw new AnotherSignerNeededError(still);
        w.signed = signedWireBytes(tx);
        w.signature = null;
        return;
      }
      case 'sending':
        w.signature = await rpc.sendTransaction(w.signed!);
        setSignature(w.signature);
        return;
      case 'confirming':
        await rpc.confirm(w.signature!, w.built!.lastValidBlockHeight);
        return;
      case 'indexing':
        setLive(await syncTransaction(w.signature!, { goneIsDone: w.job!.goneIsDone }));
        return;
    }
  }

  async function runFrom(first: FlowStep): Promise<void> {
    const w = work.current;
    try {
      for (let step: FlowStep | null = first; step; step = nextStep(step)) {
        try {
          await runStep(step, w);
        } catch (err) {
          dispatch({ type: 'fail', step, failure: classifyFailure(step, err, failures) });
          return;
        }
        // On screen before the next step starts: a wallet that answers at once must not make
        // "Waiting for your wallet" skip the status line (and the screen reader).
        flushSync(() => dispatch({ type: 'stepDone', step }));
      }
    } finally {
      running.current = false;
    }
  }

  return {
    state,
    started,
    live,
    signature,
    start(input) {
      if (running.current) return false;
      const job = jobFor(input);
      running.current = true;
      work.current = { ...NO_WORK, job };
      setStarted(input);
      setLive(null);
      setSignature(null);
      dispatch({ type: 'start' });
      void runFrom('building');
      return true;
    },
    retry() {
      if (running.current || state.status !== 'failed' || !state.retryAt) return;
      const w = work.current;
      const have = { built: !!w.built, signed: !!w.signed, signature: !!w.signature };
      running.current = true;
      dispatch({ type: 'retry', have });
      void runFrom(resumableStep(state.retryAt, have));
    },
    reset() {
      if (running.current) return;
      work.current = NO_WORK;
      setLive(null);
      setSignature(null);
      dispatch({ type: 'reset' });
    },
  };
}
