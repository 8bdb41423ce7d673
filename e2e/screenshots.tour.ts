import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, signInOn, test } from './support/fixtures';

const ARTIFACTS = path.join(process.cwd(), 'e2e', 'artifacts');
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

for (const size of SIZES) {
  test(`screenshots of home, register, settings and profile (${size.name} ${size.width}×${size.height})`, async ({
    page,
    keypair,
    tags,
  }, testInfo) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.setViewportSize({ width: size.width, height: size.height });
    const tag = await tags.seeded('shot', {
      owner: keypair.publicKey,
      displayName: 'Screenshot Sam',
      bio: 'Coffee, code and Solana.\nPays in USDC.',
      preferredToken: 'USDC',
      verified: true,
      merchant: true,
    });

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, testInfo, `home-${size.width}x${size.height}`);

    await signInOn(page, '/register', keypair.publicKey);
    await page.getByLabel('Tag', { exact: true }).fill('sams_shop');
    await expect(page.getByTestId('availability')).toHaveText('Available');
    await shoot(page, testInfo, `register-${size.width}x${size.height}`);

    await page.goto('/settings');
    await expect(page.locator(`section[data-tag="@${tag}"]`)).toBeVisible();
    await shoot(page, testInfo, `settings-${size.width}x${size.height}`);

    await page.goto(`/@${tag}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Screenshot Sam' })).toBeVisible();
    await shoot(page, testInfo, `profile-${size.width}x${size.height}`);
  });
}

test('the home page looks a tag up with the keyboard alone', async ({ page, tags }) => {
  const tag = await tags.seeded('kbd', {
    owner: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    displayName: 'Keyboard Kim',
  });
  await page.goto('/');
  await page.keyboard.press('Tab'); // skip link
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const input = page.getByRole('textbox', { name: 'Look up a tag' });
  for (let i = 0; i < 8 && !(await input.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  // The focus is visible: an outline drawn by :focus-visible.
  expect(await input.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  await page.keyboard.type(`@${tag.toUpperCase()}`);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/@${tag}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Keyboard Kim' })).toBeVisible();
});
