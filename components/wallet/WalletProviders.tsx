'use client';

import { WalletAdapterNetwork, type Adapter, type WalletError } from '@solana/wallet-adapter-base';
import { ConnectionProvider, WalletProvider } from '@solana/wallet-adapter-react';
import { SolflareWalletAdapter } from '@solana/wallet-adapter-solflare';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Cluster } from '@/lib/core/solana-pay';
import type { LocalTestWallet } from './local-test-wallet';
import { WalletDialogProvider } from './WalletDialog';

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
 * extension is there, its Wallet Standard entry replaces the adapter. On Android phones
 * WalletProvider adds Mobile Wallet Adapter itself when no wallet is installed.
 */
export function WalletProviders({
  rpcUrl,
  cluster,
  children,
}: {
  rpcUrl: string;
  cluster: Cluster;
  children: ReactNode;
}) {
  const wallets = useMemo<Adapter[]>(
    () => [new SolflareWalletAdapter({ network: SOLFLARE_NETWORK[cluster] })],
    [cluster],
  );
  const testWallet = useLocalTestWallet(cluster, rpcUrl);
  return (
    <ConnectionProvider endpoint={rpcUrl} config={{ commitment: 'confirmed' }}>
      <WalletProvider wallets={wallets} autoConnect onError={logWalletError}>
        <WalletDialogProvider testWallet={testWallet}>{children}</WalletDialogProvider>
      </WalletProvider>
    </ConnectionProvider>
  );
}

/**
 * The test wallet exists on the localnet only. The import stays behind the cluster check so
 * its code is a chunk of its own, never loaded on devnet, testnet or mainnet.
 */
function useLocalTestWallet(cluster: Cluster, rpcUrl: string): LocalTestWallet | null {
  const [testWallet, setTestWallet] = useState<LocalTestWallet | null>(null);
  useEffect(() => {
    if (cluster !== 'localnet') return;
    let current = true;
    void import('./local-test-wallet').then((m) => {
      if (current) setTestWallet(m.registerLocalTestWallet(rpcUrl));
    });
    return () => {
      current = false;
    };
  }, [cluster, rpcUrl]);
  return testWallet;
}

// Each call site shows its own error; this only keeps a trace for debugging.
function logWalletError(error: WalletError): void {
  console.warn(`wallet: ${error.name}: ${error.message}`);
}
