'use client';

import { useEffect, useState } from 'react';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src/tag-record';
import { useSiteWallet } from '@/components/wallet/site-wallet-context';
import { maxRegistrationCost, tagRecordBump, type RegistrationCost } from '@/lib/chain/registration-cost';

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
  const { rpc } = useSiteWallet();
  const [rentLamports, setRentLamports] = useState<number | null>(null);
  const [cost, setCost] = useState<{ tag: string; cost: RegistrationCost } | null>(null);
  useEffect(() => {
    let live = true;
    rpc.getMinimumBalanceForRentExemption(TAG_RECORD_SIZE).then(
      (rent) => live && setRentLamports(rent),
      () => live && setRentLamports(null),
    );
    return () => {
      live = false;
    };
  }, [rpc]);
  useEffect(() => {
    if (!tag || rentLamports === null) return;
    let live = true;
    const { programId, maxMicroLamports } = settings;
    tagRecordBump(tag, programId).then(
      (bump) =>
        live &&
        setCost({ tag, cost: maxRegistrationCost({ tag, bump, rentLamports, maxMicroLamports, signatures: 1 }) }),
      () => live && setCost(null),
    );
    return () => {
      live = false;
    };
  }, [tag, rentLamports, settings]);
  // Only the cost of the tag asked for now: a stale one never shows under a new tag.
  return tag && cost?.tag === tag && rentLamports !== null ? cost.cost : null;
}
