'use client';

import dynamic from 'next/dynamic';

// Rendered in the browser only: the button reads wallet state that does not exist on the server.
const WalletMultiButton = dynamic(
  () => import('@solana/wallet-adapter-react-ui').then((m) => m.WalletMultiButton),
  {
    ssr: false,
    loading: () => (
      <button type="button" className="wallet-adapter-button wallet-adapter-button-trigger" disabled>
        Wallet
      </button>
    ),
  },
);

export function WalletButton() {
  return <WalletMultiButton />;
}
