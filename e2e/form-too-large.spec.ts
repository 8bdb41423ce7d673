import { expect, signInOn, test } from './support/fixtures';

// Server actions take at most 16 KB. A field that passes the form's own checks can
// still be large (whitespace around a short bio is trimmed only on the server): the form then
// says so in words, and nothing is saved.
test('a profile form over the server actions’ body limit says so, and saves nothing', async ({
  page,
  keypair,
  tags,
}) => {
  const tag = await tags.seeded('big', { owner: keypair.publicKey, bio: 'Before.' });

  await signInOn(page, '/settings', keypair.publicKey);
  const form = page.locator(`section[data-tag="@${tag}"]`);
  await form.getByLabel('Bio').fill(`After.${' '.repeat(20_000)}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('save-status')).toHaveText(
    'The form is too large to send (at most 16 KB). Shorten a field and try again.',
  );

  await page.goto(`/@${tag}`);
  await expect(page.locator('.bio')).toHaveText('Before.');
});
