import { test as base, expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { deleteIdentities, seedIdentity, type SeedRow } from './db';
import { newKeypair, type TestKeypair } from '@/tests/support/keypair';
import { installTestWallet, TEST_WALLET_NAME } from './test-wallet';

/** The tags a test makes, each deleted from the mirror after the test. */
interface TestTags {
  /** A tag no other test (or earlier run) uses. */
  fresh(prefix: string): string;
  /** A fresh tag, seeded as `row` says (see seedIdentity). */
  seeded(prefix: string, row: Omit<SeedRow, 'tag'>): Promise<string>;
}

interface Fixtures {
  /** A fresh key, its wallet injected into `page`. */
  keypair: TestKeypair;
  tags: TestTags;
}

export const test = base.extend<Fixtures>({
  baseURL: async ({}, use) => {
    const url = process.env.E2E_APP_URL;
    if (!url)
      throw new Error('E2E_APP_URL is not set: run through playwright.config.ts (its globalSetup starts the app).');
    await use(url);
  },
  // Any uncaught error or console error in the page (a hydration mismatch above all), any
  // Content-Security-Policy violation, and any request to somewhere other than the app and its
  // RPC endpoint fail the test (pages run under their CSP and contact no third party).
  page: async ({ page }, use) => {
    const problems: string[] = [];
    const allowed = allowedOrigins();
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    page.on('console', (msg) => {
      if (/Content[- ]Security[- ]Policy/i.test(msg.text())) problems.push(`CSP: ${msg.text()}`);
      // A profile's avatar the app could not fetch (its host unreachable) is the page working as intended.
      else if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        problems.push(`console: ${msg.text()}`);
    });
    // The browser reports each violation as an event too, whatever the console says.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(
          `Content-Security-Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
        );
      });
    });
    const leaves = (url: string) => {
      if (/^(data|blob|about):/.test(url)) return;
      if (!allowed.has(new URL(url).origin)) problems.push(`request to a third party: ${url}`);
    };
    page.on('request', (req) => leaves(req.url()));
    page.on('websocket', (ws) => leaves(ws.url()));
    await use(page);
    expect(problems, 'errors in the browser').toEqual([]);
  },
  keypair: async ({ page }, use) => {
    const keypair = newKeypair();
    await installTestWallet(page, { secretKey: keypair.secretKey });
    await use(keypair);
  },
  tags: async ({}, use) => {
    const made: string[] = [];
    const fresh = (prefix: string) => {
      const tag = uniqueTag(prefix);
      made.push(tag);
      return tag;
    };
    await use({
      fresh,
      async seeded(prefix, row) {
        const tag = fresh(prefix);
        await seedIdentity({ tag, ...row });
        return tag;
      },
    });
    await deleteIdentities(made);
  },
});

export { expect };

/** The app's origin and its RPC endpoint (http, and its PubSub WebSocket: same host, port + 1). */
function allowedOrigins(): Set<string> {
  const origins = new Set<string>();
  for (const value of [process.env.E2E_APP_URL, process.env.E2E_RPC_URL]) {
    if (!value) continue;
    const url = new URL(value);
    origins.add(url.origin);
    const ws = new URL(url.href);
    ws.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    origins.add(ws.origin);
    if (url.port) {
      ws.port = String(Number(url.port) + 1);
      origins.add(ws.origin);
    }
  }
  return origins;
}

/** A tag no other test (or earlier run) uses. */
export function uniqueTag(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/** Connects the injected test wallet through the wallet dialog (components/wallet/WalletDialog.tsx). */
export async function connectWallet(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Select Wallet' }).click();
  await page.getByRole('button', { name: new RegExp(TEST_WALLET_NAME) }).click();
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeVisible();
}

/** Opens `path`, connects the injected test wallet and signs in with it as `publicKey`. */
export async function signInOn(page: Page, path: string, publicKey: string): Promise<void> {
  await page.goto(path);
  await connectWallet(page);
  await signIn(page, publicKey);
}

/** Signs in with the connected wallet (challenge, signMessage, next-auth). */
export async function signIn(page: Page, publicKey: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page.getByText('Signed in as')).toBeVisible();
  await expect(page.locator('.session .mono')).toHaveAttribute('title', publicKey);
}

/** Localnet SOL for fees and rent. */
export async function airdrop(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Airdrop \d+ SOL/ }).click();
  await expect(page.getByText(/Received \d+ development SOL/)).toBeVisible();
}

/** Types a tag on /register and waits for the availability answer. */
export async function chooseTag(page: Page, tag: string, expected: RegExp): Promise<void> {
  await page.getByLabel('Tag', { exact: true }).fill(tag);
  await expect(page.getByTestId('availability')).toHaveText(expected);
}

/**
 * Records every text the register status line shows, so a test can assert each step was
 * announced even when a step lasts a few milliseconds on localnet.
 */
export async function recordRegisterStatus(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: string[] = [];
    (window as unknown as { __statusLog: string[] }).__statusLog = log;
    const record = () => {
      const text = document.querySelector('[data-testid="register-status"]')?.textContent ?? '';
      if (text && log[log.length - 1] !== text) log.push(text);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

export async function registerStatusLog(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __statusLog: string[] }).__statusLog.slice());
}
