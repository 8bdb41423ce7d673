import type { PayerWarning } from '@/lib/identity/payer-warnings';

/** The warnings a payer reads before the pay button (lib/identity/payer-warnings.ts decides them); nothing when there are none. */
export function PayerWarnings({ warnings }: { warnings: readonly PayerWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <section className="card payer-warnings" role="alert" aria-label="Before you pay" data-testid="payer-warnings">
      {warnings.map((warning) => (
        <p key={warning.code} className="warn" data-warning={warning.code}>
          {warning.message}
        </p>
      ))}
    </section>
  );
}
