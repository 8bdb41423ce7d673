import { newKeypair } from '@/tests/support/keypair';
import { airdrop, chooseTag, expect, signInOn, test } from './support/fixtures';
import { installTestWallet, switchTestWalletAccount, walletState } from './support/test-wallet';

/*
 * Registering with a payout wallet of its own (DESIGN "Payout rules"): the payout wallet
 * consents by signing. The person's wallet holds both accounts (Phantom and Solflare hold
 * several): the owner signs, the page asks for the payout wallet, the person switches to it in
 * the wallet, it signs, and the transaction is sent with both signatures.
 */

test('register with a separate payout wallet: the owner signs, then the payout account, then it lands', async ({
  page,
  tags,
}) => {
  const owner = newKeypair();
  const payout = newKeypair();
  await installTestWallet(page, { secretKey: owner.secretKey, otherSecretKeys: [payout.secretKey] });
  const tag = tags.fresh('payout');

  await signInOn(page, '/register', owner.publicKey);
  await airdrop(page);
  await chooseTag(page, tag, /^Available$/);
  await page.getByLabel('Payout wallet (optional)').fill(payout.publicKey);
  await page.getByRole('button', { name: `Register @${tag}` }).click();

  // The owner has signed; the payout wallet must sign too.
  await expect(page.getByTestId('register-error')).toContainText('switch to it in your wallet', { timeout: 45_000 });
  await switchTestWalletAccount(page, payout.publicKey);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: `@${tag} is yours` })).toBeVisible({ timeout: 45_000 });
  expect((await walletState(page)).signTransactionCount).toBe(2);

  await page.goto(`/@${tag}`);
  await expect(page.locator('#payout-wallet')).toHaveText(payout.publicKey);
});
