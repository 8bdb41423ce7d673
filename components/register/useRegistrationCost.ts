'use client';

import { useEffect, useMemo, useState } from 'react';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { useSiteWallet } from '@/components/wallet/site-wallet-context';
import { maxRegistrationCost, type RegistrationCost } from '@/lib/chain/registration-cost';

/** What the register page knows of the service's pricing: the program and the priority-fee ceiling. */
export interface CostSettings {
  programId: string;
  maxMicroLamports: number;
}

/**
 * The most registering `tag` (canonical, or null) will cost, once the cluster has said what
 * the record's rent is; null until then. The owner pays alone on this page: one signature.
 */
export function useRegistrationCost(tag: string | null, settings: CostSettings): RegistrationCost | null {
  const { connection } = useSiteWallet();
  const [rentLamports, setRentLamports] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    connection.getMinimumBalanceForRentExemption(TAG_RECORD_SIZE).then(
      (rent) => live && setRentLamports(rent),
      () => live && setRentLamports(null),
    );
    return () => {
      live = false;
    };
  }, [connection]);
  return useMemo(
    () =>
      tag && rentLamports !== null ? maxRegistrationCost({ tag, ...settings, rentLamports, signatures: 1 }) : null,
    [tag, rentLamports, settings],
  );
}
