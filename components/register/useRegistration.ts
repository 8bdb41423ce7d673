import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { Transaction } from '@solana/web3.js';
import { useEffect, useReducer, useRef } from 'react';
import { buildRegistration } from '@/app/(app)/register/actions';
import { errorMessageOf } from '@/lib/web/api-client';
import { shortKey } from '@/lib/web/format';
import {
  INITIAL_REGISTER_STATE,
  classifyFailure,
  registerReducer,
  type Failure,
  type RegisterState,
  type RegisterStep,
} from '@/lib/web/register-flow';

/** How long the page keeps asking POST /v1/sync while the transaction is not final (202). */
const SYNC_ATTEMPTS = 15;
const SYNC_DELAY_MS = 1000;

interface Work {
  tag: string;
  wallet: string;
  built: { tx: Transaction; blockhash: string; lastValidBlockHeight: number } | null;
  signed: Uint8Array | null;
  signature: string | null;
}

/** A failure a step names itself, instead of leaving it to classifyFailure. */
class StepFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

const ALREADY_REGISTERED = 6012;

/**
 * Runs the register steps (lib/web/register-flow.ts decides the order and the retries):
 * build with the server action, sign with the wallet, send through the app's connection,
 * confirm with the blockhash and lastValidBlockHeight of the build, index with POST /v1/sync.
 */
export function useRegistration(sessionKey: string | null) {
  const [state, dispatch] = useReducer(registerReducer, INITIAL_REGISTER_STATE);
  const { connection } = useConnection();
  const wallet = useWallet();
  const walletRef = useRef(wallet);
  walletRef.current = wallet;
  const work = useRef<Work>({ tag: '', wallet: '', built: null, signed: null, signature: null });
  const ran = useRef<RegisterState | null>(null);

  useEffect(() => {
    if (state.status !== 'running' || ran.current === state) return;
    ran.current = state; // once per entry into a step (effects may run twice in development)
    const step = state.step;
    runStep(step).then(
      () => dispatch({ type: 'stepDone', step }),
      (err: unknown) =>
        dispatch({ type: 'fail', step, failure: err instanceof StepFailure ? err.failure : classifyFailure(step, err) }),
    );
  });

  async function runStep(step: RegisterStep): Promise<void> {
    const w = work.current;
    switch (step) {
      case 'building': {
        const result = await buildRegistration({ tag: w.tag, wallet: w.wallet || undefined });
        if (!result.ok) throw result.error;
        const tx = Transaction.from(base64ToBytes(result.value.transaction));
        w.built = { tx, blockhash: tx.recentBlockhash!, lastValidBlockHeight: Number(result.value.lastValidBlockHeight) };
        w.signed = null;
        w.signature = null;
        return;
      }
      case 'signing': {
        const { publicKey, signTransaction } = walletRef.current;
        if (!publicKey || !signTransaction) {
          throw new StepFailure({ kind: 'wallet-unavailable', message: 'Connect a wallet that can sign transactions, then retry.' });
        }
        if (sessionKey && publicKey.toBase58() !== sessionKey) {
          throw new StepFailure({
            kind: 'wallet-unavailable',
            message: `You signed in as ${shortKey(sessionKey)}, but the connected wallet is ${shortKey(publicKey.toBase58())}. Switch back, then retry.`,
          });
        }
        const signed = await signTransaction(w.built!.tx);
        w.signed = signed.serialize(); // throws if the owner's signature is missing or wrong
        w.signature = null;
        return;
      }
      case 'sending':
        w.signature = await connection.sendRawTransaction(w.signed!, { preflightCommitment: 'confirmed', maxRetries: 5 });
        return;
      case 'confirming': {
        const { blockhash, lastValidBlockHeight } = w.built!;
        const { value } = await connection.confirmTransaction({ signature: w.signature!, blockhash, lastValidBlockHeight }, 'confirmed');
        if (value.err) {
          const detail = JSON.stringify(value.err);
          throw new StepFailure(
            detail.includes(`"Custom":${ALREADY_REGISTERED}`)
              ? classifyFailure('confirming', { code: 'conflict' })
              : { kind: 'transaction-failed', message: `The transaction failed on chain (${detail}); nothing was registered.` },
          );
        }
        return;
      }
      case 'indexing': {
        for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
          const res = await fetch('/v1/sync', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ signature: w.signature }),
          });
          if (res.ok && res.status !== 202) return;
          if (res.status !== 202) throw { code: codeOfStatus(res.status), message: await errorMessageOf(res) };
          await new Promise((r) => setTimeout(r, SYNC_DELAY_MS));
        }
        throw { code: 'index_pending' };
      }
    }
  }

  return {
    state,
    start(tag: string, payout: string) {
      work.current = { tag, wallet: payout, built: null, signed: null, signature: null };
      dispatch({ type: 'start' });
    },
    retry() {
      const w = work.current;
      dispatch({ type: 'retry', have: { built: !!w.built, signed: !!w.signed, signature: !!w.signature } });
    },
    reset() {
      dispatch({ type: 'reset' });
    },
    registeredTag: () => work.current.tag,
  };
}

function codeOfStatus(status: number): string {
  return status === 429 ? 'rate_limited' : status === 503 ? 'service_unavailable' : 'unknown';
}

function base64ToBytes(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
