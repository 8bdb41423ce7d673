'use client';

import { WalletAdapterNetwork, type Adapter, type WalletError } from '@solana/wallet-adapter-base';
import { ConnectionProvider, WalletProvider } from '@solana/wallet-adapter-react';
import { WalletModalProvider } from '@solana/wallet-adapter-react-ui';
import { SolflareWalletAdapter } from '@solana/wallet-adapter-solflare';
import { useMemo, type ReactNode } from 'react';
import type { Cluster } from '@/lib/core/solana-pay';
// The adapter's stylesheet without its Google Fonts @import (pages fetch nothing from third parties).
import '@/app/wallet-adapter.css';

const SOLFLARE_NETWORK: Partial<Record<Cluster, WalletAdapterNetwork>> = {
  'mainnet-beta': WalletAdapterNetwork.Mainnet,
  devnet: WalletAdapterNetwork.Devnet,
  testnet: WalletAdapterNetwork.Testnet,
};

/**
 * The one place wallets are wired (DESIGN.md "Web"). Any Wallet Standard wallet in the page
 * (Phantom, Solflare, Backpack, …) is picked up by WalletProvider on its own, so no Phantom
 * adapter. Solflare's adapter stays: without the extension it is still "loadable" and opens
 * Solflare's web wallet (its SDK, loaded on connect) or the Solflare app on iOS; when the
 * extension is there, its Wallet Standard entry replaces the adapter.
 */
export function WalletProviders({ rpcUrl, cluster, children }: { rpcUrl: string; cluster: Cluster; children: ReactNode }) {
  const wallets = useMemo<Adapter[]>(() => [new SolflareWalletAdapter({ network: SOLFLARE_NETWORK[cluster] })], [cluster]);
  return (
    <ConnectionProvider endpoint={rpcUrl} config={{ commitment: 'confirmed' }}>
      <WalletProvider wallets={wallets} autoConnect onError={logWalletError}>
        <WalletModalProvider>{children}</WalletModalProvider>
      </WalletProvider>
    </ConnectionProvider>
  );
}

// Each call site shows its own error; this only keeps a trace for debugging.
function logWalletError(error: WalletError): void {
  console.warn(`wallet: ${error.name}: ${error.message}`);
}
