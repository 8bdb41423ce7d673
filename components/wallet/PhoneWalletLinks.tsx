'use client';

import { WalletReadyState } from '@solana/wallet-adapter-base';
import { useWallet } from '@solana/wallet-adapter-react';
import { isPhoneWithoutWallet, walletBrowseLinks } from '@/lib/web/browser/phone-wallet';
import { useBrowserValue } from './useBrowserValue';
import { useWalletDialog } from './WalletDialog';

const userAgent = () => navigator.userAgent;
const pageUrl = () => window.location.href;

/**
 * On a phone browser with no wallet injected: open this same page inside Phantom's or
 * Solflare's own browser, where the wallet is. Worked out in the browser only (the user agent
 * and the wallets are the browser's), so the server renders nothing here.
 */
export function PhoneWalletLinks() {
  const { wallets } = useWallet();
  const { testWallet } = useWalletDialog();
  const agent = useBrowserValue(userAgent);
  const url = useBrowserValue(pageUrl);
  if (agent === null || url === null) return null;
  // The localnet test wallet is this app's own, not a wallet the visitor brought.
  const walletDetected = wallets.some(
    (w) => w.readyState === WalletReadyState.Installed && w.adapter.name !== testWallet?.name,
  );
  if (!isPhoneWithoutWallet({ userAgent: agent, walletDetected })) return null;
  return (
    <div className="phone-wallets">
      <p>On a phone, open this page in your wallet app:</p>
      <ul className="actions">
        {walletBrowseLinks(url).map((link) => (
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
