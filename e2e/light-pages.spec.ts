import type { Page, Response } from '@playwright/test';
import { pageJavaScript, WALLET_PAGE_JS_BUDGET_BYTES } from '@/bench/page-javascript';
import { WALLET_MARKERS } from '@/bench/wallet-markers';
import { expect, test } from './support/fixtures';
import { openPage } from './support/pages';
import { newKeypair } from '@/tests/support/keypair';

/** Every script the page loads from now on, kept as it arrives (the page's and its dynamic imports). */
function recordScripts(page: Page): Promise<{ url: string; text: string }>[] {
  const scripts: Promise<{ url: string; text: string }>[] = [];
  page.on('response', (res: Response) => {
    if (res.request().resourceType() === 'script')
      scripts.push(
        res.text().then(
          (text) => ({ url: res.url(), text }),
          () => ({ url: res.url(), text: '' }),
        ),
      );
  });
  return scripts;
}

/** The markers of wallet code found in `scripts`, each with the chunk it is in. */
async function walletCodeIn(scripts: Promise<{ url: string; text: string }>[]): Promise<string[]> {
  const found: string[] = [];
  for (const { url, text } of await Promise.all(scripts)) {
    for (const marker of WALLET_MARKERS) if (text.includes(marker)) found.push(`${marker} in ${new URL(url).pathname}`);
  }
  return found;
}

test('/ and /@tag load no wallet code', async ({ page, tags }) => {
  const tag = await tags.seeded('light', { owner: newKeypair().publicKey, displayName: 'Light Page' });
  for (const path of ['/', `/@${tag}`]) {
    const scripts = recordScripts(page);
    await page.goto(path, { waitUntil: 'networkidle' });
    expect(await walletCodeIn(scripts), path).toEqual([]);
  }
});

test('/register, /settings and the till load wallet code when the visitor asks for a wallet, not with the page', async ({
  page,
  tags,
}) => {
  const tag = await tags.seeded('till', { owner: newKeypair().publicKey, displayName: 'Light Till' });
  for (const path of ['/register', '/settings', `/charge/${tag}`]) {
    const scripts = recordScripts(page);
    await openPage(page, path);
    await page.waitForLoadState('networkidle');
    expect(await walletCodeIn(scripts), `${path} as it loads`).toEqual([]);

    const before = scripts.length;
    await page.getByRole('button', { name: 'Select Wallet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
    await expect(dialog.getByRole('button', { name: /Test wallet \(this device\)/ })).toBeVisible();
    const loadedOnConnect = await walletCodeIn(scripts.slice(before));
    expect(loadedOnConnect.length, `${path}: wallet code loaded by the connect button`).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
  }
});

test('/register, /settings and the till load at most 170 KB of JavaScript (brotli) with the page', async ({
  baseURL,
  tags,
}) => {
  const tag = await tags.seeded('till', { owner: newKeypair().publicKey, displayName: 'Light Till' });
  for (const path of ['/register', '/settings', `/charge/${tag}`]) {
    const js = await pageJavaScript(baseURL!, path);
    expect(js.walletCode, path).toEqual([]);
    expect(js.brotliBytes, `${path}: first-load JavaScript, brotli q11`).toBeLessThanOrEqual(
      WALLET_PAGE_JS_BUDGET_BYTES,
    );
  }
});
