import type { ReactNode } from 'react';
import { SignInPanel } from '@/components/wallet/SignInPanel';
import { PhoneWalletLinks } from '@/components/wallet/PhoneWalletLinks';
import { WalletButton } from '@/components/wallet/WalletButton';
import { LazyWalletRoot } from '@/components/wallet/LazyWalletRoot';
import { DEFAULT_RPC_URL } from '@/lib/chain/rpc';
import { getConfig } from '@/lib/core/config';
import { getSessionKey } from '@/lib/web/server/session';

// /register and /settings: the pages that need a wallet. The public pages stay outside this
// group so they ship no wallet code; these two load it when the visitor asks for a wallet.
export default async function WalletLayout({ children }: { children: ReactNode }) {
  const { solana } = getConfig();
  const sessionKey = await getSessionKey();
  return (
    <LazyWalletRoot rpcUrl={solana.publicRpcUrl ?? DEFAULT_RPC_URL} cluster={solana.cluster}>
      <main id="main">
        <section className="card wallet-bar" aria-label="Wallet and sign-in">
          <SignInPanel sessionKey={sessionKey} />
          <WalletButton />
          <PhoneWalletLinks />
        </section>
        {children}
      </main>
    </LazyWalletRoot>
  );
}
