import { chooseTag, connectWallet, expect, test } from './support/fixtures';
import { newKeypair } from '@/tests/support/keypair';
import { walletState } from './support/test-wallet';

// `keypair` injects the test wallet into the page.
test('a look-alike tag is flagged on /register before anything is signed', async ({ page, keypair: _wallet, tags }) => {
  const verified = await tags.seeded('shop', { owner: newKeypair().publicKey, verified: true });
  const plain = await tags.seeded('cafe', { owner: newKeypair().publicKey });

  await page.goto('/register');
  await connectWallet(page);

  // Looks like a verified tag: refused, with the tag it imitates named.
  const imitation = verified.replace(/^shop/, '5hop');
  await chooseTag(
    page,
    imitation,
    new RegExp(
      `^@${imitation} looks like @${verified} \\(verified\\)\\. Tags that look like a verified or merchant tag cannot be registered\\.$`,
    ),
  );
  await expect(page.getByRole('button', { name: `Register @${imitation}` })).toBeDisabled();

  // Looks like an ordinary tag: available, with a warning under the field.
  const similar = plain.replace(/^cafe/, 'c_afe');
  await chooseTag(page, similar, /^Available$/);
  await expect(page.getByTestId('lookalike-warning')).toHaveText(
    `@${similar} looks like @${plain}. Payers may confuse them; consider a more distinct tag.`,
  );

  expect(await walletState(page)).toMatchObject({ signMessageCount: 0, signTransactionCount: 0 });
});
