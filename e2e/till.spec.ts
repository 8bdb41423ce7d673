import AxeBuilder from '@axe-core/playwright';
import { generateKeyPairSigner } from '@solana/kit';
import type { Page } from '@playwright/test';
import { TEST_CRON_SECRET } from '@/devstack/app';
import { newKeypair } from '@/tests/support/keypair';
import { airdropTo, fund, payTransferRequest, registerOnChain, rpc } from './support/chain';
import { expect, signInOn, test } from './support/fixtures';

/*
 * The till (/charge/{tag}, app/(app)/charge/[tag]): the tag's signed-in owner asks for an
 * amount, a second wallet pays the QR code's Solana Pay request from Node with a real key on
 * the localnet, the indexer's cron route (the finding pass) finds it, and the till turns green.
 * The /@tag page's pay link issues a fresh reference per click. Both tags are registered on the
 * localnet: a payment request is issued for the record the chain holds.
 */

/** `owner` registers a fresh tag on the localnet, mirrored through /v1/sync. */
async function registered(page: Page, tag: string, owner: ReturnType<typeof newKeypair>): Promise<string> {
  const connection = rpc();
  await fund(connection, owner);
  await registerOnChain(page, connection, owner, tag);
  return tag;
}

async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Pays a `solana:` transfer request as a wallet does: the amount to the recipient, the reference a read-only key. */
async function payRequest(url: string): Promise<string> {
  const request = new URL(url);
  expect(request.searchParams.get('amount'), 'the till names its amount').not.toBeNull();
  const connection = rpc();
  const payer = await generateKeyPairSigner(); // the second wallet
  await airdropTo(connection, payer.address, 1);
  return (await payTransferRequest(connection, payer, request)).signature;
}

test('the till: its owner charges 0.05 SOL, a second wallet pays the QR code’s request, and it turns green', async ({
  page,
  keypair,
  tags,
  baseURL,
}) => {
  const tag = await registered(page, tags.fresh('till'), keypair);
  await signInOn(page, `/charge/${tag}`, keypair.publicKey);
  await page.reload(); // the page is rendered for the session now held
  await expect(page.getByRole('heading', { level: 1, name: `Till for @${tag}` })).toBeVisible();

  await page.getByLabel('Amount (SOL)').fill('0.05');
  await page.getByRole('button', { name: 'Show the QR code' }).click();
  await expect(
    page.getByRole('img', { name: `QR code of the Solana Pay request for 0.05 SOL to @${tag}` }),
  ).toBeVisible();
  const status = page.getByRole('status');
  await expect(status).toHaveText('Waiting for the payment…');
  expect(await axeViolations(page)).toEqual([]);

  const url = (await page.getByRole('link', { name: 'Open in a Solana wallet' }).getAttribute('href'))!;
  expect(url).toMatch(
    new RegExp(`^solana:${keypair.publicKey}\\?amount=0\\.05&reference=[1-9A-HJ-NP-Za-km-z]{32,44}&label=`),
  );
  await payRequest(url);

  // The indexer's cron (its finding pass) runs until it has found the payment; the till polls the receipt.
  await expect(async () => {
    const cron = await fetch(`${baseURL}/api/cron/indexer`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(cron.status).toBe(200);
    await expect(status).toHaveText('Paid: 0.05 SOL received.', { timeout: 3000 });
  }).toPass({ timeout: 45_000 });
  await expect(status).toHaveAttribute('data-status', /^(confirmed|finalized)$/);
  expect(await axeViolations(page)).toEqual([]);
});

test('the till refuses everyone but the owner, clearly', async ({ page, keypair, tags }) => {
  const tag = await tags.seeded('till', { owner: newKeypair().publicKey });
  await page.goto(`/charge/${tag}`);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    `Connect the wallet that owns @${tag} and sign in to take payments here.`,
  );
  await expect(page.getByLabel('Amount (SOL)')).toHaveCount(0);

  await signInOn(page, `/charge/${tag}`, keypair.publicKey); // a wallet that does not own it
  await page.reload();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    `This wallet does not own @${tag}: only its owner can take payments here.`,
  );
  await expect(page.getByLabel('Amount (SOL)')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
});

test('the /@tag page’s pay link issues a fresh reference on every click, kept and pending', async ({
  page,
  tags,
  baseURL,
}) => {
  const ownerKey = newKeypair();
  const owner = ownerKey.publicKey;
  const tag = await registered(page, tags.fresh('paylink'), ownerKey);
  await page.goto(`/@${tag}`);
  const href = await page.getByRole('link', { name: /Pay with a Solana wallet/ }).getAttribute('href');
  expect(href).toBe(`/pay/${tag}`);
  const references: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await fetch(new URL(href!, baseURL), { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = new URL(res.headers.get('location')!);
    expect(location.protocol).toBe('solana:');
    expect(location.pathname).toBe(owner);
    references.push(location.searchParams.get('reference')!);
  }
  expect(new Set(references).size).toBe(2);
  for (const reference of references) {
    const receipt = await (await fetch(new URL(`/v1/payments/${reference}`, baseURL))).json();
    expect(receipt).toMatchObject({ reference, status: 'pending', tag: `@${tag}`, recipient: owner, amount: null });
  }
});
