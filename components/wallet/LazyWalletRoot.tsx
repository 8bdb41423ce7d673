'use client';

import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Cluster } from '@/lib/core/solana-pay';
import { browserRpc } from '@/lib/web/browser/rpc';
import {
  CHOSEN_WALLET_STORAGE_KEY,
  NOT_LOADED,
  SiteWalletContext,
  type SiteWallet,
  type WalletAdapterState,
} from './site-wallet-context';
import { WalletDialogProvider } from './WalletDialog';

type Bridge = typeof import('./WalletAdapterBridge');

/**
 * The wallet for /register, /settings and the till. The page ships none of wallet-adapter,
 * nor web3.js v1 and its Buffer polyfill: its reads and sends are lib/web/browser/rpc.ts.
 * wallet-adapter, the wallets and the decoding of built transactions
 * (components/wallet/WalletAdapterBridge.tsx) are a dynamic import, loaded when the visitor
 * opens the wallet dialog, or at once for a visitor who chose a wallet before.
 * The bridge renders beside the page, not around it, so loading it re-renders the page with
 * the wallet's state without remounting it (what was typed stays).
 */
export function LazyWalletRoot({
  rpcUrl,
  cluster,
  children,
}: {
  rpcUrl: string;
  cluster: Cluster;
  children: ReactNode;
}) {
  const [bridge, setBridge] = useState<Bridge | null>(null);
  const [state, setState] = useState<WalletAdapterState | null>(null);
  const loading = useRef(false);
  const load = useCallback(() => {
    if (loading.current) return;
    loading.current = true;
    void import('./WalletAdapterBridge').then(setBridge, (err: Error) => {
      loading.current = false; // a failed chunk load: the next click tries again
      console.warn(`wallet: the wallet code did not load: ${err.message}`);
    });
  }, []);
  useEffect(() => {
    if (localStorage.getItem(CHOSEN_WALLET_STORAGE_KEY)) load();
  }, [load]);
  const rpc = useMemo(() => browserRpc(rpcUrl), [rpcUrl]);
  const wallet = useMemo<SiteWallet>(
    () => ({ ...(state ?? NOT_LOADED), loaded: state !== null, load, rpc }),
    [state, load, rpc],
  );
  return (
    <SiteWalletContext.Provider value={wallet}>
      {bridge ? <bridge.WalletAdapterBridge rpcUrl={rpcUrl} cluster={cluster} onChange={setState} /> : null}
      <WalletDialogProvider load={load} Choices={bridge?.WalletChoices ?? null}>
        {children}
      </WalletDialogProvider>
    </SiteWalletContext.Provider>
  );
}
