'use client';

import { WalletReadyState, type WalletName } from '@solana/wallet-adapter-base';
import type { Wallet } from '@solana/wallet-adapter-react';
import { shortKey } from '@/lib/web/browser/format';
import { useSiteWallet } from './site-wallet-context';

/** Installed wallets first, then those that can load (Solflare's web wallet, Mobile Wallet Adapter). */
function offeredWallets(wallets: Wallet[]): Wallet[] {
  const rank = (w: Wallet) => (w.readyState === WalletReadyState.Installed ? 0 : 1);
  return wallets
    .filter((w) => w.readyState === WalletReadyState.Installed || w.readyState === WalletReadyState.Loadable)
    .sort((a, b) => rank(a) - rank(b));
}

/** The wallet dialog's body once the wallet code is loaded: the wallets, the connected one, the test wallet's reset. */
export function WalletChoices({ close }: { close(): void }) {
  const { loaded, wallets, wallet, connected, publicKey, select, connect, disconnect, testWallet } = useSiteWallet();
  const offered = offeredWallets(wallets);
  if (!loaded)
    return (
      <p className="muted" role="status">
        Loading wallets…
      </p>
    );

  function choose(name: WalletName) {
    // Selecting the wallet already selected changes nothing, so connect it directly.
    if (wallet?.adapter.name === name && !connected) connect().catch(() => {});
    else select(name);
    close();
  }

  return (
    <>
      {connected && publicKey ? (
        <div className="wallet-dialog-current">
          <p>
            Connected: {wallet?.adapter.name} <span className="mono">{shortKey(publicKey.toBase58())}</span>
          </p>
          <button type="button" className="button secondary" onClick={() => void disconnect().finally(close)}>
            Disconnect
          </button>
        </div>
      ) : null}
      {offered.length ? (
        <ul className="wallet-list">
          {offered.map((w) => (
            <li key={w.adapter.name}>
              <button type="button" className="wallet-option" onClick={() => choose(w.adapter.name)}>
                {/* eslint-disable-next-line @next/next/no-img-element -- a wallet's icon is a data: URI, nothing to optimize */}
                <img src={w.adapter.icon} alt="" width={28} height={28} />
                <span>{w.adapter.name}</span>
                {w.readyState === WalletReadyState.Installed ? (
                  <span className="muted wallet-detected">Detected</span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>No wallet was found in this browser. Install Phantom or Solflare, or open this page in a wallet app.</p>
      )}
      {testWallet ? (
        <div className="wallet-dialog-test">
          <p className="muted">
            The test wallet is this local cluster&apos;s only: its key stays in this browser and holds localnet SOL,
            airdropped on first use.
          </p>
          <button type="button" className="button secondary" onClick={() => testWallet.reset()}>
            Reset test wallet
          </button>
        </div>
      ) : null}
    </>
  );
}
