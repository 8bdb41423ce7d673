'use client';

import { useMemo } from 'react';
import { isPhone, isPhoneWithoutWallet, walletBrowseLinks } from '@/lib/web/browser/phone-wallet';
import { useBrowserValue } from './useBrowserValue';
import { useLoaded } from './useLoaded';
import { useSiteWallet } from './site-wallet-context';

const userAgent = () => navigator.userAgent;
const pageUrl = () => window.location.href;

/**
 * On a phone browser with no wallet injected: open this same page inside Phantom's or
 * Solflare's own browser, where the wallet is. Worked out in the browser only (the user agent
 * and the wallets are the browser's), so the server renders nothing here. The look for an
 * injected wallet is a small chunk of its own, loaded on phones only; wallet-adapter stays
 * unloaded until the visitor asks for a wallet.
 */
export function PhoneWalletLinks() {
  const { testWallet } = useSiteWallet();
  const agent = useBrowserValue(userAgent);
  const url = useBrowserValue(pageUrl);
  // The localnet test wallet is this app's own, not a wallet the visitor brought.
  const ignore = testWallet?.name ?? null;
  const detect = useMemo(
    () =>
      agent !== null && isPhone(agent)
        ? () => import('./injected-wallets').then((m) => m.injectedWalletPresent(ignore))
        : null,
    [agent, ignore],
  );
  const walletDetected = useLoaded(detect);
  if (agent === null || url === null || walletDetected === null) return null;
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
