import { devices, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { everyPage, openPage } from './support/pages';

// Debian's Chromium plays both phones: each profile's user agent, viewport and touch, not its engine.
const { defaultBrowserType: _iphoneEngine, ...IPHONE } = devices['iPhone 13'];
const { defaultBrowserType: _androidEngine, ...ANDROID } = devices['Pixel 7'];

/** The controls a finger taps: at least 44 × 44 CSS px each. */
const TAP_TARGETS = 'button, a.button, .site-header nav a, input:not([type="hidden"]), select, textarea';

async function expectBrowseLinks(page: Page): Promise<void> {
  const url = encodeURIComponent(page.url());
  const ref = encodeURIComponent(new URL(page.url()).origin);
  await expect(page.getByRole('link', { name: 'Open in Phantom' })).toHaveAttribute(
    'href',
    `https://phantom.app/ul/browse/${url}?ref=${ref}`,
  );
  await expect(page.getByRole('link', { name: 'Open in Solflare' })).toHaveAttribute(
    'href',
    `https://solflare.com/ul/v1/browse/${url}?ref=${ref}`,
  );
}

for (const [name, profile] of [
  ['iPhone', IPHONE],
  ['Android', ANDROID],
] as const) {
  test.describe(`${name} with no wallet injected`, () => {
    test.use(profile);

    test('the pages that sign offer Open in Phantom and Open in Solflare, carrying the page', async ({ page }) => {
      for (const path of ['/register', '/settings']) {
        await openPage(page, path);
        await expectBrowseLinks(page);
      }
    });
  });
}

test.describe('a phone with a wallet injected (inside a wallet app)', () => {
  test.use(IPHONE);

  test('offers no browse links: the wallet is right there', async ({ page, keypair }) => {
    void keypair; // its wallet is injected
    await openPage(page, '/register');
    await expect(page.getByRole('button', { name: 'Select Wallet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open in Phantom' })).toHaveCount(0);
  });
});

test('a desktop browser with no wallet gets no browse links', async ({ page }) => {
  await openPage(page, '/register');
  await expect(page.getByRole('button', { name: 'Select Wallet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in Phantom' })).toHaveCount(0);
});

test.describe('360 px wide', () => {
  test.use({ ...ANDROID, viewport: { width: 360, height: 780 } });

  test('every page fits without horizontal scroll and its tap targets are at least 44 px', async ({ page, tags }) => {
    for (const { name, path } of await everyPage(tags)) {
      await openPage(page, path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
      const small = await page.locator(TAP_TARGETS).evaluateAll((elements) =>
        elements
          .map((el) => ({ el, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < 44 || box.height < 44))
          .map(
            ({ el, box }) =>
              `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('name') || '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
          ),
      );
      expect(small, `${name}: tap targets under 44 px`).toEqual([]);
    }
  });
});
