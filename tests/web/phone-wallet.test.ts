import { describe, expect, it } from 'vitest';
import { isPhoneWithoutWallet, walletBrowseLinks } from '@/lib/web/browser/phone-wallet';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('isPhoneWithoutWallet', () => {
  it.each([
    ['an iPhone with no wallet', IPHONE, false, true],
    ['an Android phone with no wallet', ANDROID, false, true],
    ["an iPhone inside a wallet's browser (a wallet is injected)", IPHONE, true, false],
    ["an Android phone inside a wallet's browser", ANDROID, true, false],
    ['a desktop with no wallet (an extension can be installed there)', DESKTOP, false, false],
    ['a desktop with a wallet', DESKTOP, true, false],
  ])('%s', (_name, userAgent, walletDetected, expected) => {
    expect(isPhoneWithoutWallet({ userAgent, walletDetected })).toBe(expected);
  });
});

describe('walletBrowseLinks', () => {
  it("carries the page's URL and the app's origin, each URL-encoded, in each wallet's browse link", () => {
    const links = walletBrowseLinks('https://tags.example/settings?tab=a&b=c#top');
    expect(links).toEqual([
      {
        wallet: 'Phantom',
        href: 'https://phantom.app/ul/browse/https%3A%2F%2Ftags.example%2Fsettings%3Ftab%3Da%26b%3Dc%23top?ref=https%3A%2F%2Ftags.example',
      },
      {
        wallet: 'Solflare',
        href: 'https://solflare.com/ul/v1/browse/https%3A%2F%2Ftags.example%2Fsettings%3Ftab%3Da%26b%3Dc%23top?ref=https%3A%2F%2Ftags.example',
      },
    ]);
  });
});
