/**
 * Phones have no wallet extensions: a visitor on a phone browser reaches a wallet by opening
 * the same page inside the wallet app's own browser, where the wallet is injected. These are
 * the wallets' documented "browse" deep links (docs.phantom.com, Phantom deeplinks › Browse;
 * docs.solflare.com, Solflare deeplinks › Browse): the page's URL and the app's origin, each
 * URL-encoded.
 */

export interface BrowseLink {
  wallet: 'Phantom' | 'Solflare';
  href: string;
}

/** iOS and Android phones and tablets, by the browser's user agent (no extension store there). */
const PHONE_USER_AGENT = /\b(iPhone|iPad|iPod|Android)\b/i;

/** An iOS or Android phone or tablet, by its user agent. */
export function isPhone(userAgent: string): boolean {
  return PHONE_USER_AGENT.test(userAgent);
}

/**
 * Whether to offer the browse links: a phone browser in which no wallet is injected. Takes its
 * inputs, as wallet-adapter's getEnvironment does, so it is the same answer on the server and
 * in a test. `walletDetected` is whether any real wallet (not the localnet test wallet, not
 * Mobile Wallet Adapter) reports itself installed.
 */
export function isPhoneWithoutWallet({
  userAgent,
  walletDetected,
}: {
  userAgent: string;
  walletDetected: boolean;
}): boolean {
  return !walletDetected && isPhone(userAgent);
}

/** "Open in Phantom" and "Open in Solflare" for `pageUrl` (absolute). */
export function walletBrowseLinks(pageUrl: string): BrowseLink[] {
  const url = encodeURIComponent(pageUrl);
  const ref = encodeURIComponent(new URL(pageUrl).origin);
  return [
    { wallet: 'Phantom', href: `https://phantom.app/ul/browse/${url}?ref=${ref}` },
    { wallet: 'Solflare', href: `https://solflare.com/ul/v1/browse/${url}?ref=${ref}` },
  ];
}
