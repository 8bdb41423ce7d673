import { spawnSync } from 'node:child_process';
import { expect, test, uniqueTag } from './support/fixtures';
import { newKeypair } from '@/tests/support/keypair';

function admin(action: string, tag: string): void {
  const run = spawnSync(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', 'scripts/admin.ts', action, tag],
    {
      // The database alone: the command tells no instance anything (each view reads the change).
      env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`npm run admin -- ${action} ${tag} failed:\n${run.stderr}`);
}

test('/@unknown and a blocked tag show the same 404 page', async ({ page, tags }) => {
  const unknown = uniqueTag('nobody');
  const unknownResponse = await page.goto(`/@${unknown}`);
  expect(unknownResponse?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Nothing here' })).toBeVisible();
  const unknownMain = await page.locator('main').innerText();

  const blocked = await tags.seeded('blocked', { owner: newKeypair().publicKey, displayName: 'Soon Blocked' });
  expect((await page.goto(`/@${blocked}`))?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Soon Blocked' })).toBeVisible();

  admin('block', blocked);
  const blockedResponse = await page.goto(`/@${blocked}`);
  expect(blockedResponse?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Nothing here' })).toBeVisible();
  expect(await page.locator('main').innerText()).toBe(unknownMain);
  await expect(page).toHaveTitle('Not found · Identity Tags');
  await expect(page.getByText('Soon Blocked')).toHaveCount(0);

  // A malformed tag is the same page too.
  expect((await page.goto('/@No!'))?.status()).toBe(404);
  expect(await page.locator('main').innerText()).toBe(unknownMain);
});
