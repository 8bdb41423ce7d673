import { connectWallet, expect, signIn, signInOn, test } from './support/fixtures';
import { newKeypair } from '@/tests/support/keypair';
import { installTestWallet, walletState } from './support/test-wallet';

/*
 * A wallet that offers Sign-In With Solana signs in through it, with the
 * fields of the server's challenge; one that lacks it signs the challenge with signMessage.
 * Both land in the same session (next-auth's `solana` provider, the /v1 verify path).
 */
for (const offerSignIn of [true, false]) {
  test(`a wallet ${offerSignIn ? 'with' : 'without'} solana:signIn signs in through ${offerSignIn ? 'it' : 'signMessage'}`, async ({
    page,
  }) => {
    const keypair = newKeypair();
    await installTestWallet(page, { secretKey: keypair.secretKey, offerSignIn });
    const challenges: string[] = [];
    page.on('response', async (res) => {
      if (res.url().endsWith('/v1/auth/challenge') && res.ok())
        challenges.push(((await res.json()) as { message: string }).message);
    });

    await signInOn(page, '/settings', keypair.publicKey);
    await expect(page.getByText('This wallet owns no tags yet.')).toBeVisible();

    const wallet = await walletState(page);
    expect(challenges).toHaveLength(1);
    if (offerSignIn) {
      expect(wallet).toMatchObject({ signInCount: 1, signMessageCount: 0 });
      // Exactly the fields the server issued, read from its challenge text.
      const [header, address, , statement, , nonce, issuedAt, expirationTime] = challenges[0].split('\n');
      expect(wallet.signInInputs).toEqual([
        {
          domain: header.replace(/ wants you to sign in with your Solana account:$/, ''),
          address,
          statement,
          nonce: nonce.replace(/^Nonce: /, ''),
          issuedAt: issuedAt.replace(/^Issued At: /, ''),
          expirationTime: expirationTime.replace(/^Expiration Time: /, ''),
        },
      ]);
      expect(address).toBe(keypair.publicKey);
    } else {
      expect(wallet).toMatchObject({ signInCount: 0, signMessageCount: 1 });
    }
  });
}

test('a refused Sign-In With Solana request leaves the page usable', async ({ page }) => {
  const keypair = newKeypair();
  await installTestWallet(page, { secretKey: keypair.secretKey, offerSignIn: true, rejectSigning: true });
  await page.goto('/register');
  await connectWallet(page);
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(page.locator('.session [role="alert"]')).toHaveText('You declined the sign-in request in your wallet.');
  expect(await walletState(page)).toMatchObject({ signInCount: 1, signMessageCount: 0 });
  await page.evaluate(() => {
    (window as unknown as { __testWallet: { reject: boolean } }).__testWallet.reject = false;
  });
  await signIn(page, keypair.publicKey);
  expect(await walletState(page)).toMatchObject({ signInCount: 2, signMessageCount: 0 });
});
