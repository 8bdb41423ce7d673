'use client';

import { formatSol } from '@/lib/web/browser/format';
import { useRegistrationCost, type CostSettings } from './useRegistrationCost';

/** "At most … SOL": the record's rent plus the network fee at the priority-fee ceiling, before anything is signed. */
export function RegistrationCost({ tag, settings }: { tag: string | null; settings: CostSettings }) {
  const cost = useRegistrationCost(tag, settings);
  if (!cost) return null;
  return (
    <p className="muted" data-testid="registration-cost">
      Registering costs at most <strong>{formatSol(cost.total)}</strong>: {formatSol(cost.rent)} of rent, a deposit held
      by the tag&apos;s account and returned when you close it 30 days after releasing the tag, and a network fee of at
      most {formatSol(cost.fee)}.
    </p>
  );
}
