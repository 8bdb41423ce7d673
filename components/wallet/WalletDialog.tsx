'use client';

import { useWallet, type Wallet } from '@solana/wallet-adapter-react';
import { WalletReadyState, type WalletName } from '@solana/wallet-adapter-base';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { shortKey } from '@/lib/web/browser/format';
import type { LocalTestWallet } from './local-test-wallet';

interface WalletDialogControls {
  /** Opens the dialog; focus returns to the element that had it when the dialog closes. */
  open(): void;
  /** The localnet's test wallet once loaded; null on any other cluster. */
  testWallet: LocalTestWallet | null;
}

const WalletDialogContext = createContext<WalletDialogControls | null>(null);

export function useWalletDialog(): WalletDialogControls {
  const controls = useContext(WalletDialogContext);
  if (!controls) throw new Error('useWalletDialog needs a WalletDialogProvider around it.');
  return controls;
}

const TITLE_ID = 'wallet-dialog-title';

/**
 * The wallet chooser, ours rather than wallet-adapter-react-ui's modal: a native modal
 * <dialog> (showModal traps focus and closes on Escape), named by its heading, with a named
 * close button and the wallets as a list of buttons. Choosing one goes through useWallet's
 * select (WalletProvider's autoConnect then connects it).
 */
export function WalletDialogProvider({
  testWallet,
  children,
}: {
  testWallet: LocalTestWallet | null;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [isOpen, setOpen] = useState(false);

  const open = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
    dialog.current?.showModal();
  }, []);
  const close = useCallback(() => dialog.current?.close(), []);
  // Escape, the close button and a choice all end here.
  const onClose = useCallback(() => {
    setOpen(false);
    if (opener.current?.isConnected) opener.current.focus();
  }, []);

  const controls = useMemo(() => ({ open, testWallet }), [open, testWallet]);
  return (
    <WalletDialogContext.Provider value={controls}>
      {children}
      <dialog ref={dialog} className="wallet-dialog" aria-labelledby={TITLE_ID} onClose={onClose}>
        <div className="wallet-dialog-head">
          <h2 id={TITLE_ID}>Connect a wallet</h2>
          <button type="button" className="dialog-close" aria-label="Close" onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {isOpen ? <WalletChoices testWallet={testWallet} close={close} /> : null}
      </dialog>
    </WalletDialogContext.Provider>
  );
}

/** Installed wallets first, then those that can load (Solflare's web wallet, Mobile Wallet Adapter). */
function offeredWallets(wallets: Wallet[]): Wallet[] {
  const rank = (w: Wallet) => (w.readyState === WalletReadyState.Installed ? 0 : 1);
  return wallets
    .filter((w) => w.readyState === WalletReadyState.Installed || w.readyState === WalletReadyState.Loadable)
    .sort((a, b) => rank(a) - rank(b));
}

function WalletChoices({ testWallet, close }: { testWallet: LocalTestWallet | null; close(): void }) {
  const { wallets, wallet, connected, publicKey, select, connect, disconnect } = useWallet();
  const offered = offeredWallets(wallets);

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
