import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { airdrop, chooseTag, connectWallet, expect, recordRegisterStatus, signIn, test } from './support/fixtures';
import { setWalletRejects, walletState } from './support/test-wallet';

const ARTIFACTS = path.join(process.cwd(), 'e2e', 'artifacts');

test('a refused signature leaves the page usable, and retrying works', async ({ page, keypair, tags }, testInfo) => {
  await recordRegisterStatus(page);
  await page.goto('/register');
  await connectWallet(page);

  // Refused sign-in message.
  await setWalletRejects(page, true);
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page.locator('.session [role="alert"]')).toHaveText('You declined the sign-in request in your wallet.');
  await setWalletRejects(page, false);
  await signIn(page, keypair.publicKey);
  await airdrop(page);

  // Refused transaction.
  const tag = tags.fresh('refused');
  await chooseTag(page, tag, /^Available$/);
  await setWalletRejects(page, true);
  await page.getByRole('button', { name: `Register @${tag}` }).click();
  await expect(page.getByTestId('register-error')).toHaveText(
    'You declined the request in your wallet. Nothing was sent.',
  );
  await expect(page.getByTestId('register-status')).toHaveText('Waiting for your wallet: failed');
  await expect(page.locator('li[data-step="signing"]')).toHaveAttribute('data-status', 'failed');
  mkdirSync(ARTIFACTS, { recursive: true });
  const shot = path.join(ARTIFACTS, 'register-refused-1280x720.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('register-refused', { path: shot, contentType: 'image/png' });

  await setWalletRejects(page, false);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: `@${tag} is yours` })).toBeVisible({ timeout: 45_000 });
  expect((await walletState(page)).signTransactionCount).toBe(2);

  const res = await page.request.get(`/v1/identity/${tag}`);
  expect(res.status()).toBe(200);
});
