import type { Page } from '@playwright/test';
import { newKeypair } from '@/tests/support/keypair';
import { fund, registerOnChain, rpc } from './support/chain';
import { expect, signInOn, test } from './support/fixtures';
import { installTestWallet, switchTestWalletAccount } from './support/test-wallet';

/*
 * The tag lifecycle in two browser contexts: A offers its tag to B; B's settings
 * show the offer and B accepts; A's settings no longer list the tag; /@tag shows B's payout
 * wallet; B changes the wallet and the page shows the new one; B releases the tag and /@tag
 * is 404. Every action goes through the settings page: build, the wallet signs, send,
 * confirm, /v1/sync.
 */

/** Waits until the section's lifecycle action has gone through every step. */
async function finished(section: ReturnType<Page['locator']>): Promise<void> {
  await expect(section.getByTestId('lifecycle-status')).toHaveText('Done', { timeout: 45_000 });
}

test('A offers a tag to B, B accepts, changes the payout wallet and releases the tag', async ({
  page,
  keypair: alice,
  browser,
  baseURL,
  tags,
}) => {
  const connection = rpc();
  const bob = newKeypair();
  const tag = tags.fresh('life');
  await Promise.all([fund(connection, alice), fund(connection, bob)]);
  await registerOnChain(page, connection, alice, tag);

  // A offers the tag to B from its settings page.
  await signInOn(page, '/settings', alice.publicKey);
  const alicesTag = page.locator(`section[data-lifecycle="@${tag}"]`);
  await alicesTag.getByLabel('Offer to').fill(bob.publicKey);
  await alicesTag.getByRole('button', { name: 'Offer the tag' }).click();
  await finished(alicesTag);
  await expect(alicesTag.getByTestId('pending-offer')).toContainText(bob.publicKey);
  expect(await (await page.request.get(`/v1/identity/${tag}/transfer`)).json()).toEqual({
    tag: `@${tag}`,
    owner: alice.publicKey,
    pendingOwner: bob.publicKey,
  });

  // B, in a browser context of its own, sees the offer and accepts it.
  const bobs = await browser.newContext({ baseURL });
  const bobPage = await bobs.newPage();
  const problems: string[] = [];
  bobPage.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  const payoutKeys = newKeypair(); // another account of B's wallet: the new payout wallet signs too
  await installTestWallet(bobPage, { secretKey: bob.secretKey, otherSecretKeys: [payoutKeys.secretKey] });
  try {
    await signInOn(bobPage, '/settings', bob.publicKey);
    const offers = bobPage.getByTestId('incoming-offers');
    await expect(offers.locator(`li[data-offer="@${tag}"]`)).toContainText(alice.publicKey);
    await offers.getByRole('button', { name: `Accept @${tag}` }).click();
    await expect(offers.getByTestId('lifecycle-status')).toHaveText('Done', { timeout: 45_000 });
    const bobsTag = bobPage.locator(`section[data-lifecycle="@${tag}"]`);
    await expect(bobsTag.getByTestId('current-wallet')).toHaveText(bob.publicKey);

    // A's settings no longer list the tag.
    await page.reload();
    await expect(page.getByText('This wallet owns no tags yet.')).toBeVisible();
    await expect(page.locator(`section[data-lifecycle="@${tag}"]`)).toHaveCount(0);
    await expect(page.locator(`section[data-tag="@${tag}"]`)).toHaveCount(0);

    // The public page pays B: the accept made B's key the payout wallet.
    await page.goto(`/@${tag}`);
    await expect(page.locator('#payout-wallet')).toHaveText(bob.publicKey);

    // B changes the payout wallet: B signs, switches to the payout account, which signs too; the page shows the new one.
    const payout = payoutKeys.publicKey;
    await bobsTag.getByLabel('New payout wallet').fill(payout);
    await bobsTag.getByRole('button', { name: 'Change wallet' }).click();
    await expect(bobsTag.getByTestId('lifecycle-error')).toContainText('switch to it in your wallet', {
      timeout: 45_000,
    });
    await switchTestWalletAccount(bobPage, payout);
    await bobsTag.getByRole('button', { name: 'Continue' }).click();
    await finished(bobsTag);
    await switchTestWalletAccount(bobPage, bob.publicKey);
    await expect(bobsTag.getByTestId('current-wallet')).toHaveText(payout);
    await page.goto(`/@${tag}`);
    await expect(page.locator('#payout-wallet')).toHaveText(payout);

    // B releases the tag after typing it; /@tag is then 404.
    const release = bobsTag.getByRole('button', { name: `Release @${tag}` });
    await expect(release).toBeDisabled();
    await bobsTag.getByLabel(`Type @${tag} to release it`).fill(`@${tag}`);
    await release.click();
    // Once released, the page shows itself afresh without the tag (its steps go with it).
    await expect(bobPage.locator(`section[data-lifecycle="@${tag}"]`)).toHaveCount(0, { timeout: 45_000 });
    const gone = await page.goto(`/@${tag}`);
    expect(gone?.status()).toBe(404);
    expect((await page.request.get(`/v1/identity/${tag}`)).status()).toBe(404);
  } finally {
    await bobs.close();
  }
  expect(problems, 'errors in the second browser').toEqual([]);
});
