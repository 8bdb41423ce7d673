import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { signIn as apiSignIn } from '@/tests/support/sign-in';
import { identityRow } from './support/db';
import { expect, signInOn, test } from './support/fixtures';
import { newKeypair } from '@/tests/support/keypair';

test("a second wallet cannot edit the first wallet's tag", async ({ page, keypair, baseURL, tags }) => {
  const first = newKeypair();
  const tag = await tags.seeded('owned', { owner: first.publicKey, displayName: 'First Owner' });

  // The second wallet (the page's) signs in: its settings list nothing.
  await signInOn(page, '/settings', keypair.publicKey);
  await expect(page.getByText('This wallet owns no tags yet.')).toBeVisible();
  await expect(page.locator(`section[data-tag="@${tag}"]`)).toHaveCount(0);

  // A forged server action: the settings page's saveProfile, called for the other tag.
  const actionId = await findServerActionId('saveProfile');
  const forged = await page.evaluate(
    async ({ actionId, tag }) => {
      const res = await fetch('/settings', {
        method: 'POST',
        headers: { 'Next-Action': actionId, Accept: 'text/x-component', 'Content-Type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify([tag, { displayName: 'Hijacked' }]),
      });
      return { status: res.status, body: await res.text() };
    },
    { actionId, tag },
  );
  expect(forged.body).toContain('"code":"forbidden"');

  // PATCH /v1/identity with the second wallet's own token: 403.
  const { token } = await apiSignIn(baseURL!, keypair);
  const patch = await page.evaluate(
    async ({ tag, token }) => {
      const res = await fetch(`/v1/identity/${tag}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'Hijacked' }),
      });
      return { status: res.status, body: await res.json() };
    },
    { tag, token },
  );
  expect(patch).toEqual({ status: 403, body: { error: { code: 'forbidden', message: expect.any(String) } } });

  expect(await identityRow(tag)).toMatchObject({ owner: first.publicKey, display_name: 'First Owner' });
  await page.goto(`/@${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: 'First Owner' })).toBeVisible();
});

/**
 * The id of a server action, from the build's manifest. Pages hand actions to their forms as
 * props, so the id travels in the page's RSC payload (any owner's settings page shows it to a
 * would-be forger); a signed-in wallet with no tags gets no form, so the test reads the build.
 */
async function findServerActionId(name: string): Promise<string> {
  const manifest = JSON.parse(
    await readFile(path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'), 'utf8'),
  ) as { node: Record<string, { exportedName?: string }> };
  const id = Object.keys(manifest.node).find((key) => manifest.node[key].exportedName === name);
  if (!id) throw new Error(`no server action named ${name} in the build`);
  return id;
}
