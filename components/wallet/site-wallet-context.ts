'use client';

// The pages' wallet, as wallet-adapter's state or before it loads (components/wallet/LazyWalletRoot.tsx).

import type { WalletContextState } from '@solana/wallet-adapter-react';
import { createContext, useContext } from 'react';
import type { BrowserRpc } from '@/lib/web/browser/rpc';
import type { WireTransactions } from '@/lib/web/browser/wire-transaction';
import type { LocalTestWallet } from './local-test-wallet';

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
> & {
  testWallet: LocalTestWallet | null;
  /** Decoding and signing built transactions: web3.js v1 code, loaded with the wallet. */
  wire: WireTransactions | null;
};

export interface SiteWallet extends WalletAdapterState {
  /** wallet-adapter and the wallets are loaded and have said what they offer. */
  loaded: boolean;
  /** Loads wallet-adapter and the wallets, once: when the visitor asks to connect. */
  load(): void;
  /** The app's RPC, for reads and sends: plain fetch, no wallet code. */
  rpc: BrowserRpc;
}

/**
 * Where wallet-adapter keeps the wallet the visitor chose (its default key, passed to it
 * explicitly): a visitor who connected before has asked for the wallet, so it loads and
 * reconnects with the page.
 */
export const CHOSEN_WALLET_STORAGE_KEY = 'walletName';

const notLoaded = () => Promise.reject(new Error('The wallets are not loaded yet.'));

/** Before the wallet code loads: nothing connected, nothing offered. */
export const NOT_LOADED: WalletAdapterState = {
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
  wire: null,
};

export const SiteWalletContext = createContext<SiteWallet | null>(null);

export function useSiteWallet(): SiteWallet {
  const wallet = useContext(SiteWalletContext);
  if (!wallet) throw new Error('useSiteWallet needs LazyWalletRoot around it.');
  return wallet;
}
