'use client';

import { useCallback, useEffect, useState } from 'react';
import { formatSol } from '@/lib/web/browser/format';
import { useSiteWallet } from '@/components/wallet/site-wallet-context';

const AIRDROP_SOL = 2;
const LAMPORTS_PER_SOL = 1_000_000_000;

/** Localnet only: development SOL for the connected wallet, and its balance. */
export function AirdropButton() {
  const { rpc, publicKey } = useSiteWallet();
  const [balance, setBalance] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const readBalance = useCallback(async (): Promise<number | null> => {
    if (!publicKey) return null;
    try {
      return await rpc.getBalance(publicKey.toBase58());
    } catch {
      return null;
    }
  }, [rpc, publicKey]);

  useEffect(() => {
    void readBalance().then(setBalance);
  }, [readBalance]);

  // The card is drawn before a wallet connects too, so the register form under it never moves
  // when one does (a connected wallet only fills in the balance and enables the button).
  async function airdrop() {
    if (!publicKey) return;
    setBusy(true);
    setMessage(null);
    try {
      await rpc.airdrop(publicKey.toBase58(), AIRDROP_SOL * LAMPORTS_PER_SOL);
      setMessage({ ok: true, text: `Received ${AIRDROP_SOL} development SOL.` });
      setBalance(await readBalance());
    } catch (err) {
      setMessage({ ok: false, text: `Airdrop failed: ${(err as Error).message || 'the localnet did not answer'}.` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card">
      <h2>Development SOL</h2>
      <p className="muted">
        This app runs on a local cluster. Registering costs a network fee and the tag account&apos;s rent.
      </p>
      <p>
        Balance:{' '}
        <strong data-testid="balance">
          {!publicKey ? 'no wallet connected' : balance === null ? '…' : formatSol(balance)}
        </strong>
      </p>
      <div className="actions">
        <button type="button" className="button secondary" onClick={airdrop} disabled={busy || !publicKey}>
          {busy ? 'Requesting…' : `Airdrop ${AIRDROP_SOL} SOL`}
        </button>
      </div>
      <p className={message?.ok === false ? 'error status-line' : 'ok status-line'} role="status">
        {message?.text ?? ''}
      </p>
    </div>
  );
}
