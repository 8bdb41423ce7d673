import type { Page } from '@playwright/test';
import { WALLET_MARKERS } from '@/bench/wallet-markers';
import { expect, test } from './support/fixtures';
import { newKeypair } from '@/tests/support/keypair';

/** The markers of wallet code found in the scripts `path` loads, once it has settled. */
async function walletCodeOn(page: Page, path: string): Promise<string[]> {
  const scripts: Promise<{ url: string; text: string }>[] = [];
  const onResponse = (res: import('@playwright/test').Response) => {
    if (res.request().resourceType() === 'script')
      scripts.push(
        res.text().then(
          (text) => ({ url: res.url(), text }),
          () => ({ url: res.url(), text: '' }),
        ),
      );
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  const found: string[] = [];
  for (const { url, text } of await Promise.all(scripts)) {
    for (const marker of WALLET_MARKERS) if (text.includes(marker)) found.push(`${marker} in ${new URL(url).pathname}`);
  }
  return found;
}

test('/ and /@tag load no wallet code; /register does (the check works)', async ({ page, tags }) => {
  const tag = await tags.seeded('light', { owner: newKeypair().publicKey, displayName: 'Light Page' });
  expect(await walletCodeOn(page, '/')).toEqual([]);
  expect(await walletCodeOn(page, `/@${tag}`)).toEqual([]);
  expect((await walletCodeOn(page, '/register')).length).toBeGreaterThan(0);
});
