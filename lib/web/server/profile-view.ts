import 'server-only';
import type { PayerWarning } from '@/lib/features/identity/payer-warnings';
import type { Identity } from '@/lib/features/identity/schemas';
import { avatarPath } from './avatar-path';
import { html, trustedHtml, type Html } from './html';
import { payerWarningsHtml } from './payer-warnings-html';
import { qrSvg } from './qr-svg';
import { payToken, solanaPayLink, type Cluster } from '@/lib/core/solana-pay';
import { npubOf } from '@/lib/core/nostr-key';

/**
 * The public profile (/@tag) as HTML: what the page shows inside `<main>`. Plain markup; the
 * copy button works through /profile.js (public/), the QR code is SVG drawn here. One
 * function, so that a block added to the profile is added in one place.
 */
export async function profileViewHtml(
  identity: Identity,
  cluster: Cluster,
  warnings: readonly PayerWarning[],
): Promise<Html> {
  const name = identity.displayName ?? identity.tag;
  // A payout that would lose what it is sent gets no pay link and no QR code while it stands.
  if (warnings.some((w) => w.code === 'unsafe_payout')) return unpayableHtml(identity, name, warnings);
  const token = payToken(identity.preferredToken, cluster);
  // The QR code is the plain transfer request (the page is the same for every view); the
  // button's link goes through /pay/{tag}, which issues each click a fresh reference.
  const link = solanaPayLink({ wallet: identity.wallet, mint: token.mint, label: name });
  // The markup is qrcode's own output for our link: rects and paths, no user text.
  const qr = trustedHtml(await qrSvg(link));
  return html`<article aria-labelledby="profile-name">
    ${introHtml(identity, name)} ${payerWarningsHtml(warnings)}
    ${paySectionHtml(
      identity,
      html`<p>
          <a class="button" href="${`/pay/${identity.tag.slice(1)}`}" rel="nofollow"
            >Pay with a Solana wallet (${token.label.length > 12 ? 'token' : token.label})</a
          >
        </p>
        ${tokenNoteHtml(identity, token)}`,
      html`<div class="qr" role="img" aria-label="${`QR code of the Solana Pay link to pay ${identity.tag}`}">
        ${qr}
      </div>`,
    )}
  </article>`;
}

/** The profile of a tag whose payout would lose what it is sent: the warning, the wallet, nothing to pay with. */
function unpayableHtml(identity: Identity, name: string, warnings: readonly PayerWarning[]): Html {
  return html`<article aria-labelledby="profile-name">
    ${introHtml(identity, name)} ${payerWarningsHtml(warnings)}
    ${paySectionHtml(
      identity,
      html`<p>Payments to ${identity.tag} are paused until its owner sets a payout wallet that can receive them.</p>`,
    )}
  </article>`;
}

/** The pay card: its heading and the payout wallet, then `body`; `aside` beside it (the QR code). */
function paySectionHtml(identity: Identity, body: Html, aside: Html | '' = ''): Html {
  return html`<section class="card pay" aria-labelledby="pay-heading">
    <div>
      <h2 id="pay-heading">Pay ${identity.tag}</h2>
      ${walletHtml(identity)} ${body}
    </div>
    ${aside}
  </section>`;
}

/** Who the profile is: its head, its bio and its Nostr key, the same whether it can be paid or not. */
function introHtml(identity: Identity, name: string): Html {
  return html`${headHtml(identity, name)} ${identity.bio ? html`<p class="bio">${identity.bio}</p>` : ''}
  ${nostrHtml(identity)}`;
}

function headHtml(identity: Identity, name: string): Html {
  return html`<header class="profile-head">
    ${avatarHtml(identity)}
    <div>
      <h1 id="profile-name">${name}</h1>
      ${identity.displayName ? html`<p class="profile-tag">${identity.tag}</p>` : ''}${badgesHtml(identity)}
    </div>
  </header>`;
}

function walletHtml(identity: Identity): Html {
  return html`<p class="muted">Payout wallet</p>
    <div class="copy-row">
      <code class="mono" id="payout-wallet">${identity.wallet}</code
      >${copyButtonHtml(identity.wallet, 'Copy the payout wallet address')}
    </div>`;
}

function avatarHtml(identity: Identity): Html {
  // Served from our own origin (lib/web/server/avatar-path.ts): the page contacts no third party.
  if (identity.avatar)
    return html`<img
      class="avatar"
      src="${avatarPath(identity.tag.slice(1), identity.avatar)}"
      alt=""
      width="96"
      height="96"
    />`;
  return html`<div class="avatar" aria-hidden="true">${identity.tag.slice(1, 2).toUpperCase()}</div>`;
}

/** The owner's Nostr key as clients show it (npub); NIP-05 clients verify it at /.well-known/nostr.json. */
function nostrHtml(identity: Identity): Html | '' {
  if (!identity.nostr) return '';
  return html`<p class="nostr">Nostr <code class="mono">${npubOf(identity.nostr)}</code></p>`;
}

function badgesHtml(identity: Identity): Html | '' {
  if (!identity.verified && !identity.merchant) return '';
  return html`<div class="badges">
    ${identity.verified ? html`<span class="badge verified">Verified</span>` : ''}${identity.merchant ? html`<span class="badge merchant">Merchant</span>` : ''}
  </div>`;
}

function tokenNoteHtml(identity: Identity, token: ReturnType<typeof payToken>): Html | '' {
  if (token.unavailable)
    return html`<p class="muted">
      ${identity.tag} prefers ${identity.preferredToken}, which has no mint on this cluster; the link asks for SOL.
    </p>`;
  if (token.mint) return html`<p class="muted">Token mint <span class="mono">${token.mint}</span></p>`;
  return '';
}

/** A button that copies `text` (public/profile.js), and the live region that says it did. */
function copyButtonHtml(text: string, label: string): Html {
  return html`<button type="button" class="button secondary" data-copy="${text}" aria-label="${label}">Copy</button
    ><span class="visually-hidden" role="status"></span>`;
}
