import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './support/fixtures';
import { everyPage, openPage } from './support/pages';

test('axe finds no violations on any page', async ({ page, tags }) => {
  for (const { name, path } of await everyPage(tags)) {
    await openPage(page, path);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      name,
    ).toEqual([]);
  }
});

test('the wallet dialog: named, a list of buttons, axe-clean, Escape and the close button return focus to its opener', async ({
  page,
}) => {
  await openPage(page, '/register');
  const opener = page.getByRole('button', { name: 'Select Wallet' });
  await opener.focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog
      .getByRole('list')
      .getByRole('listitem')
      .getByRole('button', { name: /Test wallet \(this device\)/ }),
  ).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );

  // A modal dialog keeps focus: tabbing never reaches the page behind it.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () => !!document.activeElement?.closest('dialog') || document.activeElement === document.body,
      ),
    ).toBe(true);
  }

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
