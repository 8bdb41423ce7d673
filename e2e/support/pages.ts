import type { Page } from '@playwright/test';
import { newKeypair } from '@/tests/support/keypair';
import { uniqueTag } from './fixtures';

/** The pages every visitor meets: the App Router's and the /@tag handler's, live and missing. */
export async function everyPage(tags: {
  seeded(prefix: string, row: { owner: string; displayName?: string; bio?: string }): Promise<string>;
}) {
  const live = await tags.seeded('pages', {
    owner: newKeypair().publicKey,
    displayName: 'Page Check',
    bio: 'Seen at every width.',
  });
  return [
    { name: 'home', path: '/' },
    { name: 'register', path: '/register' },
    { name: 'settings', path: '/settings' },
    { name: 'a live /@tag', path: `/@${live}` },
    { name: 'a missing /@tag', path: `/@${uniqueTag('missing')}` },
    { name: 'a till, signed out', path: `/charge/${live}` },
  ];
}

/** Opens `path` and waits until the page is hydrated (the wallet bar's button enables once it is). */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  if (path === '/register' || path === '/settings') await page.locator('.wallet-button:not([disabled])').waitFor();
}
