import { seedIdentity } from './support/db';
import { airdrop, chooseTag, connectWallet, expect, signIn, test, uniqueTag } from './support/fixtures';
import { newKeypair } from '@/tests/support/keypair';
import { walletState } from './support/test-wallet';

test('a taken or reserved tag is reported before anything is signed', async ({ page, keypair, tags }) => {
  const taken = await tags.seeded('taken', { owner: newKeypair().publicKey });

  await page.goto('/register');
  await connectWallet(page);
  await chooseTag(page, taken, /^Taken/);
  await expect(page.getByRole('button', { name: `Register @${taken}` })).toBeDisabled();
  await chooseTag(page, 'admin', /^Reserved/);
  await chooseTag(page, '_bad', /^Not a valid tag/);
  expect(await walletState(page)).toMatchObject({ signMessageCount: 0, signTransactionCount: 0 });

  // Free when checked, taken by the time the transaction is built: refused by the build, unsigned.
  await signIn(page, keypair.publicKey);
  await airdrop(page);
  const raced = tags.fresh('raced');
  await chooseTag(page, raced, /^Available$/);
  await seedIdentity({ tag: raced, owner: newKeypair().publicKey });
  await page.getByRole('button', { name: `Register @${raced}` }).click();
  await expect(page.getByTestId('register-error')).toHaveText(
    'Someone registered this tag in the meantime. Choose another one.',
  );
  await expect(page.getByTestId('availability')).toHaveText(/^Taken/);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  expect((await walletState(page)).signTransactionCount).toBe(0);

  // The page stays usable: choose another tag.
  await page.getByRole('button', { name: 'Choose another tag' }).click();
  await expect(page.getByTestId('register-error')).toHaveCount(0);
  await chooseTag(page, uniqueTag('other'), /^Available$/);
});
