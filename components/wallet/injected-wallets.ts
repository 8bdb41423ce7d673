/**
 * Whether a wallet is injected in this page, without wallet-adapter: the Wallet Standard
 * registry's handshake (the app announces itself; each injected wallet registers with the
 * announcement's `register`), and Phantom's and Solflare's own globals for their older
 * injection. Loaded on phones only (PhoneWalletLinks.tsx): a desktop page never needs it.
 */
interface RegisteredWallet {
  name: string;
  chains: readonly string[];
}

interface Registry {
  register(...wallets: RegisteredWallet[]): () => void;
}

/** `ignore`: a wallet of the app's own (the localnet's test wallet), not one the visitor brought. */
export function injectedWalletPresent(ignore: string | null): boolean {
  const found: RegisteredWallet[] = [];
  const registry: Registry = {
    register: (...wallets) => {
      found.push(...wallets);
      return () => {};
    },
  };
  // Every wallet injected so far listens for this and registers at once (synchronously).
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: registry }));
  const globals = window as { phantom?: { solana?: unknown }; solflare?: unknown };
  return (
    found.some((w) => w.name !== ignore && w.chains.some((chain) => chain.startsWith('solana:'))) ||
    !!globals.phantom?.solana ||
    !!globals.solflare
  );
}
