'use client';

import { shortKey } from '@/lib/web/browser/format';
import { useBrowserValue } from './useBrowserValue';
import { useSiteWallet } from './site-wallet-context';
import { useWalletDialog } from './WalletDialog';

const hydrated = () => true;

/**
 * The wallet bar's one button: it opens the wallet dialog, whose close gives focus back to it.
 * Disabled until hydrated, so a click before then is not lost.
 */
export function WalletButton() {
  const { open } = useWalletDialog();
  const { publicKey, connecting } = useSiteWallet();
  const ready = useBrowserValue(hydrated) ?? false;
  const label = !ready
    ? 'Wallet'
    : connecting
      ? 'Connecting…'
      : publicKey
        ? `Wallet ${shortKey(publicKey.toBase58())}`
        : 'Select Wallet';
  return (
    <button type="button" className="button wallet-button" aria-haspopup="dialog" onClick={open} disabled={!ready}>
      {label}
    </button>
  );
}
