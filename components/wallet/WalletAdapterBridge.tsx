'use client';

import { WalletAdapterNetwork, type Adapter, type WalletError } from '@solana/wallet-adapter-base';
import { ConnectionProvider, useWallet, WalletProvider } from '@solana/wallet-adapter-react';
import { SolflareWalletAdapter } from '@solana/wallet-adapter-solflare';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { Cluster } from '@/lib/core/solana-pay';
import { WIRE_TRANSACTIONS } from '@/lib/web/browser/wire-transaction';
import type { LocalTestWallet } from './local-test-wallet';
import { useLoaded } from './useLoaded';
import { CHOSEN_WALLET_STORAGE_KEY, type WalletAdapterState } from './site-wallet-context';

export { WalletChoices } from './WalletChoices';

const SOLFLARE_NETWORK: Partial<Record<Cluster, WalletAdapterNetwork>> = {
  'mainnet-beta': WalletAdapterNetwork.Mainnet,
  devnet: WalletAdapterNetwork.Devnet,
  testnet: WalletAdapterNetwork.Testnet,
};

/**
 * The one place wallets are wired (DESIGN.md "Web"), loaded by LazyWalletRoot only when
 * the visitor asks for a wallet. Any Wallet Standard wallet in the page (Phantom, Solflare,
 * Backpack, …) is picked up by WalletProvider on its own, so no Phantom adapter. Solflare's
 * adapter stays: without the extension it is still "loadable" and opens Solflare's web wallet
 * (its SDK, loaded on connect) or the Solflare app on iOS; when the extension is there, its
 * Wallet Standard entry replaces the adapter. On Android phones WalletProvider adds Mobile
 * Wallet Adapter itself when no wallet is installed.
 *
 * It renders nothing: it hands wallet-adapter's state to `onChange`. Memoized, so the page
 * re-rendering with that state does not render it again.
 */
export const WalletAdapterBridge = memo(function WalletAdapterBridge({
  rpcUrl,
  cluster,
  onChange,
}: {
  rpcUrl: string;
  cluster: Cluster;
  onChange(state: WalletAdapterState): void;
}) {
  const wallets = useMemo<Adapter[]>(
    () => [new SolflareWalletAdapter({ network: SOLFLARE_NETWORK[cluster] })],
    [cluster],
  );
  const testWallet = useLocalTestWallet(cluster, rpcUrl);
  return (
    <ConnectionProvider endpoint={rpcUrl} config={{ commitment: 'confirmed' }}>
      <WalletProvider
        wallets={wallets}
        autoConnect
        localStorageKey={CHOSEN_WALLET_STORAGE_KEY}
        onError={logWalletError}
      >
        <PublishWallet testWallet={testWallet} onChange={onChange} />
      </WalletProvider>
    </ConnectionProvider>
  );
});

/** What the pages read of `useWallet()` (components/wallet/site-wallet-context.ts). */
const PUBLISHED = [
  'wallets',
  'wallet',
  'publicKey',
  'connected',
  'connecting',
  'select',
  'connect',
  'disconnect',
  'signIn',
  'signMessage',
  'signTransaction',
] as const satisfies readonly (keyof WalletAdapterState)[];

function PublishWallet({
  testWallet,
  onChange,
}: {
  testWallet: LocalTestWallet | null;
  onChange(state: WalletAdapterState): void;
}) {
  const wallet = useWallet();
  const published = useRef<WalletAdapterState | null>(null);
  // After every render (this renders when wallet-adapter's state changes): hand the state on
  // when a part the pages read has changed.
  useEffect(() => {
    const last = published.current;
    if (last && last.testWallet === testWallet && PUBLISHED.every((key) => last[key] === wallet[key])) return;
    const next = { testWallet, wire: WIRE_TRANSACTIONS } as WalletAdapterState;
    for (const key of PUBLISHED) Object.assign(next, { [key]: wallet[key] });
    published.current = next;
    onChange(next);
  });
  return null;
}

/**
 * The test wallet exists on the localnet only. The import stays behind the cluster check so
 * its code is a chunk of its own, never loaded on devnet, testnet or mainnet.
 */
function useLocalTestWallet(cluster: Cluster, rpcUrl: string): LocalTestWallet | null {
  const load = useMemo(
    () =>
      cluster === 'localnet'
        ? () => import('./local-test-wallet').then((m) => m.registerLocalTestWallet(rpcUrl))
        : null,
    [cluster, rpcUrl],
  );
  return useLoaded(load);
}

// Each call site shows its own error; this only keeps a trace for debugging.
function logWalletError(error: WalletError): void {
  console.warn(`wallet: ${error.name}: ${error.message}`);
}
