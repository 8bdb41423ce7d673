'use client';

import type { WalletContextState } from '@solana/wallet-adapter-react';
import { Connection } from '@solana/web3.js';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Cluster } from '@/lib/core/solana-pay';
import type { LocalTestWallet } from './local-test-wallet';
import { WalletDialogProvider } from './WalletDialog';

/** What the pages use of wallet-adapter's `useWallet()`, and the localnet's test wallet once loaded. */
export type WalletAdapterState = Pick<
  WalletContextState,
  | 'wallets'
  | 'wallet'
  | 'publicKey'
  | 'connected'
  | 'connecting'
  | 'select'
  | 'connect'
  | 'disconnect'
  | 'signIn'
  | 'signMessage'
  | 'signTransaction'
> & { testWallet: LocalTestWallet | null };

export interface SiteWallet extends WalletAdapterState {
  /** wallet-adapter and the wallets are loaded and have said what they offer. */
  loaded: boolean;
  /** Loads wallet-adapter and the wallets, once: when the visitor asks to connect. */
  load(): void;
  /** The app's RPC, for reads and sends; web3.js only, no wallet code. */
  connection: Connection;
}

/**
 * Where wallet-adapter keeps the wallet the visitor chose (its default key, passed to it
 * explicitly): a visitor who connected before has asked for the wallet, so it loads and
 * reconnects with the page.
 */
export const CHOSEN_WALLET_STORAGE_KEY = 'walletName';

const notLoaded = () => Promise.reject(new Error('The wallets are not loaded yet.'));

/** Before the wallet code loads: nothing connected, nothing offered. */
const NOT_LOADED: WalletAdapterState = {
  wallets: [],
  wallet: null,
  publicKey: null,
  connected: false,
  connecting: false,
  select: () => {},
  connect: notLoaded,
  disconnect: notLoaded,
  signIn: undefined,
  signMessage: undefined,
  signTransaction: undefined,
  testWallet: null,
};

const SiteWalletContext = createContext<SiteWallet | null>(null);

export function useSiteWallet(): SiteWallet {
  const wallet = useContext(SiteWalletContext);
  if (!wallet) throw new Error('useSiteWallet needs LazyWalletRoot around it.');
  return wallet;
}

type Bridge = typeof import('./WalletAdapterBridge');

/**
 * The wallet for /register and /settings. The page ships none of wallet-adapter: its code and
 * the wallets' (components/wallet/WalletAdapterBridge.tsx) are a dynamic import, loaded when
 * the visitor opens the wallet dialog, or at once for a visitor who chose a wallet before.
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
  const connection = useMemo(() => new Connection(rpcUrl, { commitment: 'confirmed' }), [rpcUrl]);
  const wallet = useMemo<SiteWallet>(
    () => ({ ...(state ?? NOT_LOADED), loaded: state !== null, load, connection }),
    [state, load, connection],
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
