'use client';

import { useEffect, useId, useState } from 'react';
import type { issueCharge as IssueCharge } from './actions';

/** How often the receipt is asked for while the customer pays. */
const POLL_MS = 1000;

type Charge = { reference: string; url: string; qr: string };
type Receipt = {
  status: 'pending' | 'confirmed' | 'finalized' | 'invalid' | 'expired';
  reason?: string;
  /** Payments that named this code but do not pay what was asked: they settle nothing. */
  rejected?: { signature: string; reason: string }[];
};

export function Till({ tag, issueCharge }: { tag: string; issueCharge: typeof IssueCharge }) {
  const amountId = useId();
  const [amount, setAmount] = useState('');
  const [charge, setCharge] = useState<Charge | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!charge) return;
    let stopped = false;
    const poll = async () => {
      try {
        const res = await fetch(`/v1/payments/${charge.reference}`, { cache: 'no-store' });
        if (res.ok) {
          const next = (await res.json()) as Receipt;
          if (stopped) return;
          setReceipt(next);
          if (next.status !== 'pending') return; // settled: nothing more to wait for
        }
      } catch {
        // the network blinked: ask again
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [charge]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await issueCharge(tag, amount.trim()).catch(() => null);
    setBusy(false);
    if (!result) return setError('The charge could not be made. Try again.');
    if (!result.ok) return setError(result.error.message);
    setReceipt(null);
    setCharge(result.data);
  }

  const paid = receipt?.status === 'confirmed' || receipt?.status === 'finalized';
  return (
    <section className="card" aria-labelledby={`${amountId}-heading`}>
      <h2 id={`${amountId}-heading`}>Charge</h2>
      <form onSubmit={submit}>
        <label htmlFor={amountId}>Amount (SOL)</label>
        <input
          id={amountId}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Making the code…' : 'Show the QR code'}
        </button>
      </form>
      {error ? <p role="alert">{error}</p> : null}
      {charge ? (
        <div data-reference={charge.reference}>
          <div
            className="qr"
            role="img"
            aria-label={`QR code of the Solana Pay request for ${amount} SOL to ${tag}`}
            // qrcode's own SVG of our link: rects and paths, no user text
            dangerouslySetInnerHTML={{ __html: charge.qr }}
          />
          <p>
            <a href={charge.url}>Open in a Solana wallet</a>
          </p>
          <p
            role="status"
            data-status={receipt?.status ?? 'pending'}
            style={
              paid
                ? { background: 'var(--ok)', color: 'var(--surface)', padding: '0.75rem 1rem', borderRadius: '0.5rem' }
                : undefined
            }
          >
            {paid
              ? `Paid: ${amount} SOL received.`
              : receipt?.status === 'invalid'
                ? `Not paid as asked: ${receipt.reason ?? 'the payment does not match'}.`
                : receipt?.status === 'expired'
                  ? 'This code expired unpaid: show a new one.'
                  : receipt?.rejected?.length
                    ? `Still waiting: a payment that does not match was seen (${receipt.rejected.at(-1)!.reason}).`
                    : 'Waiting for the payment…'}
          </p>
        </div>
      ) : null}
    </section>
  );
}
