import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { devices, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { startApp, type RunningApp } from '@/devstack/app';
import { newKeypair } from '@/tests/support/keypair';
import { startRpcProxy, type RpcCall, type RpcProxy } from '@/tests/support/rpc-proxy';
import { PUBLIC_GENESIS_HASHES } from '@/lib/chain/cluster-identity';
import { balanceOf, fund, LAMPORTS_PER_SOL, payTransferRequest, registerOnChain, rpc, signerOf } from './support/chain';
import { chooseTag, expect, test } from './support/fixtures';

/** What only the test wallet's module contains: its storage key and its name. */
const TEST_WALLET_MARKERS = ['identity-tags:local-test-wallet', 'Test wallet (this device)'];
const TEST_WALLET = /Test wallet \(this device\)/;

/** Every script the page has loaded so far, with its text (collected as responses arrive). */
function recordScripts(page: Page): Map<string, Promise<string>> {
  const scripts = new Map<string, Promise<string>>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script')
      scripts.set(
        res.url(),
        res.text().catch(() => ''),
      );
  });
  return scripts;
}

async function scriptsWith(scripts: Map<string, Promise<string>>, markers: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const [url, text] of scripts) {
    const body = await text;
    if (markers.some((m) => body.includes(m))) found.push(new URL(url).pathname);
  }
  return found;
}

async function connectTestWallet(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Select Wallet' }).click();
  await page.getByRole('dialog', { name: 'Connect a wallet' }).getByRole('button', { name: TEST_WALLET }).click();
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeVisible({ timeout: 30_000 });
  const label = await page.locator('.wallet-button').innerText();
  expect(label).toMatch(/^Wallet \w+…\w+$/);
  return label;
}

test('with no injected wallet: / → the test wallet → sign in → register → /@tag → edit the profile → pay another tag', async ({
  page,
  tags,
}) => {
  const tag = tags.fresh('testwallet');
  // The tag the newcomer pays: another person's, registered on chain from Node.
  const connection = rpc();
  const payee = newKeypair();
  const payeeTag = tags.fresh('payee');
  await fund(connection, payee);
  await registerOnChain(page, connection, payee, payeeTag);

  const scripts = recordScripts(page);
  await page.goto('/');
  await page.getByRole('link', { name: 'Register a tag' }).click();
  await expect(page).toHaveURL(/\/register$/);
  // Its code is in none of the scripts the page's HTML lists: it arrives with the dynamic import on localnet.
  const served = await (await page.request.get('/register')).text();
  const initial = [...served.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!);
  expect(initial.length).toBeGreaterThan(0);
  await connectTestWallet(page);
  const loadedWithWallet = await scriptsWith(scripts, TEST_WALLET_MARKERS);
  expect(loadedWithWallet.length).toBeGreaterThan(0);
  expect(loadedWithWallet.filter((path) => initial.some((src) => src.endsWith(path)))).toEqual([]);

  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page.getByText('Signed in as')).toBeVisible();
  const owner = (await page.locator('.session .mono').getAttribute('title'))!;
  // Funded by the localnet's airdrop on first use.
  expect(await balanceOf(connection, owner)).toBe(5 * LAMPORTS_PER_SOL);

  await chooseTag(page, tag, /^Available$/);
  await page.getByRole('button', { name: `Register @${tag}` }).click();
  await expect(page.getByRole('heading', { name: `@${tag} is yours` })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('link', { name: `View @${tag}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `@${tag}` })).toBeVisible();
  await expect(page.locator('#payout-wallet')).toHaveText(owner);

  // The key stays in this browser: /settings reconnects the same wallet and the session holds.
  await page.goto('/settings');
  await expect(page.locator('.session .mono')).toHaveAttribute('title', owner);
  const form = page.locator(`section[data-tag="@${tag}"]`);
  await form.getByLabel('Display name').fill('Test Wallet Owner');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('save-status')).toHaveText('Saved.');
  await page.goto(`/@${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Test Wallet Owner' })).toBeVisible();

  // Pay the other tag from its page. The page offers a Solana Pay link and no wallet app is
  // here to open it, so the test follows it as one would, with the test wallet's own key (kept
  // in this browser), and the payment is seen in the payee's balance.
  await page.goto(`/@${payeeTag}`);
  const payLink = await page.getByRole('link', { name: /Pay with a Solana wallet/ }).getAttribute('href');
  // The link issues a fresh reference and redirects to the Solana Pay request (app/pay/[tag]).
  const issued = await page.request.get(new URL(payLink!, page.url()).href, { maxRedirects: 0 });
  expect([302, 303, 307]).toContain(issued.status());
  const request = new URL(issued.headers()['location']!);
  expect(request.protocol).toBe('solana:');
  expect(request.pathname).toBe(payee.publicKey);
  expect(request.searchParams.get('reference')).toBeTruthy();
  const testWalletKey = await page.evaluate(() => localStorage.getItem('identity-tags:local-test-wallet'));
  const payer = await signerOf(bs58.decode(testWalletKey!));
  expect(payer.address).toBe(owner);
  const payeeBefore = await balanceOf(connection, payee.publicKey);
  const { lamports: paid } = await payTransferRequest(connection, payer, request);
  expect(await balanceOf(connection, payee.publicKey)).toBe(payeeBefore + paid);

  // Reset forgets the key: the wallet disconnects, and the next connect is a new, funded key.
  await page.goto('/settings');
  await expect(page.locator('.wallet-button')).toHaveText(/^Wallet /);
  await page.locator('.wallet-button').click();
  await page.getByRole('button', { name: 'Reset test wallet' }).click();
  await page.keyboard.press('Escape');
  await expect(page.locator('.wallet-button')).toHaveText('Select Wallet');
  expect(await page.evaluate(() => localStorage.getItem('identity-tags:local-test-wallet'))).toBeNull();
  await page.getByRole('button', { name: 'Select Wallet' }).click();
  await page.getByRole('dialog', { name: 'Connect a wallet' }).getByRole('button', { name: TEST_WALLET }).click();
  await expect(page.locator('.wallet-button')).toHaveText(/^Wallet /, { timeout: 30_000 });
  const fresh = await page.evaluate(() => localStorage.getItem('identity-tags:local-test-wallet'));
  expect(fresh).not.toBeNull();
  await expect(page.getByText(/the connected wallet is/)).toBeVisible();
});

/** A browser context of its own on the devnet app: the fixture's page allows only the e2e app's origin. */
async function inContext(
  browser: Browser,
  options: BrowserContextOptions,
  check: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await check(page);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

// One app for both devnet tests: starting a production server costs seconds of CPU, and what
// they check (which wallets the dialog offers) depends on the cluster's name, not on the process.
test.describe('the same production build served with SOLANA_CLUSTER=devnet', () => {
  let devnet: RunningApp | undefined;
  let devnetRpc: RpcProxy | undefined;
  const appUrl = () => devnet!.url;
  test.beforeAll(async () => {
    // Start-up reads the cluster's genesis hash and refuses one that is not devnet's
    // (lib/chain/cluster-identity.ts): the localnet behind a proxy that answers devnet's; the
    // pages need nothing else of devnet.
    devnetRpc = await startRpcProxy(process.env.E2E_RPC_URL!, (request) => {
      const call = request as RpcCall | undefined;
      if (Array.isArray(request) || call?.method !== 'getGenesisHash') return undefined;
      return { json: { jsonrpc: '2.0', id: call.id, result: PUBLIC_GENESIS_HASHES.devnet } };
    });
    devnet = await startApp({
      DATABASE_URL: process.env.E2E_DATABASE_URL!,
      SOLANA_RPC_URL: devnetRpc.url,
      SOLANA_CLUSTER: 'devnet',
      // A production deployment on a public cluster must have a service identity of its own.
      ACTION_IDENTITY_SECRET: JSON.stringify(Array.from(newKeypair().secretKey)),
      // and an ENS gateway key of its own
      ENS_GATEWAY_SIGNER_KEY: `0x${randomBytes(32).toString('hex')}`,
    });
  });
  test.afterAll(async () => {
    await devnet?.stop();
    await devnetRpc?.close();
  });

  test('on devnet the test wallet is not offered and its code never loads', async ({ browser }) => {
    await inContext(browser, {}, async (page) => {
      const scripts = recordScripts(page);
      for (const path of ['/register', '/settings']) {
        await page.goto(`${appUrl()}${path}`);
        await page.locator('.wallet-button:not([disabled])').waitFor();
        await page.getByRole('button', { name: 'Select Wallet' }).click();
        const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
        await expect(dialog.getByText(TEST_WALLET)).toHaveCount(0);
        await expect(dialog.getByRole('button', { name: 'Reset test wallet' })).toHaveCount(0);
        await page.keyboard.press('Escape');
      }
      expect(scripts.size).toBeGreaterThan(0);
      expect(await scriptsWith(scripts, TEST_WALLET_MARKERS)).toEqual([]);
    });
  });

  test("on an Android phone (no wallet injected) the dialog offers wallet-adapter's Mobile Wallet Adapter", async ({
    browser,
  }) => {
    const { defaultBrowserType: _engine, ...android } = devices['Pixel 7'];
    await inContext(browser, android, async (page) => {
      await page.goto(`${appUrl()}/register`);
      await page.getByRole('button', { name: 'Select Wallet' }).click();
      const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
      await expect(dialog.getByRole('listitem').getByRole('button', { name: /Mobile Wallet Adapter/ })).toBeVisible();
      await expect(dialog.getByText(TEST_WALLET)).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('link', { name: 'Open in Phantom' })).toBeVisible();
    });
  });
});
