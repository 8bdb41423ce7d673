'use client';

import { WalletReadyState } from '@solana/wallet-adapter-base';
import { useWallet } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import { isPhoneWithoutWallet, walletBrowseLinks, type BrowseLink } from '@/lib/web/browser/phone-wallet';
import { useWalletDialog } from './WalletDialog';

/**
 * On a phone browser with no wallet injected: open this same page inside Phantom's or
 * Solflare's own browser, where the wallet is. Worked out after hydration (the user agent and
 * the wallets are the browser's), so the server renders nothing here.
 */
export function PhoneWalletLinks() {
  const { wallets } = useWallet();
  const { testWallet } = useWalletDialog();
  const [page, setPage] = useState<{ userAgent: string; url: string } | null>(null);
  useEffect(() => setPage({ userAgent: navigator.userAgent, url: window.location.href }), []);
  if (!page) return null;
  // The localnet test wallet is this app's own, not a wallet the visitor brought.
  const walletDetected = wallets.some((w) => w.readyState === WalletReadyState.Installed && w.adapter.name !== testWallet?.name);
  if (!isPhoneWithoutWallet({ userAgent: page.userAgent, walletDetected })) return null;
  const links: BrowseLink[] = walletBrowseLinks(page.url);
  return (
    <div className="phone-wallets">
      <p>On a phone, open this page in your wallet app:</p>
      <ul className="actions">
        {links.map((link) => (
          <li key={link.wallet}>
            <a className="button secondary" href={link.href} rel="noopener">
              Open in {link.wallet}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
