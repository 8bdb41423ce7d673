import { parseConfig } from '@/lib/core/config';
import { networkFee } from '@/lib/chain/compute-budget';
import { registerTagLimit } from '@/lib/chain/compute-units';
import { findTagRecordAddress } from '@/program/pda';
import { formatSol } from '@/lib/web/browser/format';
import { REGISTER_STEP_LABELS } from '@/lib/web/browser/register-flow';
import { FLOW_STEPS } from '@/lib/web/browser/transaction-flow';
import {
  airdrop,
  chooseTag,
  expect,
  recordRegisterStatus,
  registerStatusLog,
  signInOn,
  test,
} from './support/fixtures';
import { walletState } from './support/test-wallet';

test('connect, sign in, airdrop, register a tag, land on its page, then edit the profile', async ({
  page,
  keypair,
  tags,
}) => {
  const tag = tags.fresh('journey');
  await recordRegisterStatus(page);

  await signInOn(page, '/register', keypair.publicKey);
  await airdrop(page);

  await chooseTag(page, tag.toUpperCase(), /^Available$/); // typed in capitals: the canonical form is checked
  // Before anything is signed: the most it costs, the network fee at the priority-fee ceiling for this tag's limit.
  const [, bump] = findTagRecordAddress(tag); // under the localnet's program
  const maxFee = networkFee(1, {
    units: registerTagLimit(tag, bump),
    microLamports: parseConfig({}).priorityFee.maxMicroLamports,
  });
  await expect(page.getByTestId('registration-cost')).toContainText(
    `and a network fee of at most ${formatSol(maxFee)}.`,
  );
  await expect(page.getByTestId('registration-cost')).toContainText(
    /^Registering costs at most \d+\.\d+ SOL: \d+\.\d+ SOL of rent/,
  );
  await page.getByRole('button', { name: `Register @${tag}` }).click();
  await expect(page.getByRole('heading', { name: `@${tag} is yours` })).toBeVisible({ timeout: 45_000 });

  const log = await registerStatusLog(page);
  const expected = [...FLOW_STEPS.map((s) => `${REGISTER_STEP_LABELS[s]}…`), 'Done'];
  expect(log).toEqual(expected);
  expect((await walletState(page)).signTransactionCount).toBe(1);

  await page.getByRole('link', { name: `View @${tag}` }).click();
  await expect(page).toHaveURL(new RegExp(`/@${tag}$`));
  await expect(page.getByRole('heading', { level: 1, name: `@${tag}` })).toBeVisible();
  await expect(page.locator('#payout-wallet')).toHaveText(keypair.publicKey);
  const payLink = await page.getByRole('link', { name: /Pay with a Solana wallet/ }).getAttribute('href');
  // Through /pay/{tag}, which issues a fresh reference per click (e2e/till.spec.ts follows it).
  expect(payLink).toBe(`/pay/${tag}`);

  // Edit the profile on /settings (the wallet reconnects on its own; the session cookie holds).
  await page.goto('/settings');
  const form = page.locator(`section[data-tag="@${tag}"]`);
  await form.getByLabel('Display name').fill('Journey Tester');
  await form.getByLabel('Bio').fill('Testing the whole journey.\nSecond line.');
  await form.getByLabel('Avatar image URL').fill('https://example.com/avatar.png');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('save-status')).toHaveText('Saved.');

  await page.goto(`/@${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Journey Tester' })).toBeVisible();
  await expect(page.getByText(`@${tag}`, { exact: true })).toBeVisible();
  await expect(page.locator('.bio')).toHaveText('Testing the whole journey.\nSecond line.');
  // Served from the app's own origin, never fetched by the page from the host the owner chose.
  await expect(page.locator('img.avatar')).toHaveAttribute('src', new RegExp(`^/api/avatar/${tag}\\?v=\\w+$`));
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `Journey Tester (@${tag})`);
  // The copy button runs from the page's one script (public/profile.js), under its CSP.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copy = page.getByRole('button', { name: 'Copy the payout wallet address' });
  await copy.click();
  await expect(copy).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    await page.locator('#payout-wallet').innerText(),
  );

  // Clear the bio: an emptied field is cleared (null), the others stay.
  await page.goto('/settings');
  await form.getByLabel('Bio').fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('save-status')).toHaveText('Saved.');
  await page.goto(`/@${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Journey Tester' })).toBeVisible();
  await expect(page.locator('.bio')).toHaveCount(0);

  const api = await page.request.get(`/v1/identity/${tag}`);
  expect(await api.json()).toMatchObject({
    tag: `@${tag}`,
    owner: keypair.publicKey,
    displayName: 'Journey Tester',
    bio: null,
  });

  // Sign out: the settings page no longer acts for the key.
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('Connect your wallet and sign in to edit')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeVisible();
});
