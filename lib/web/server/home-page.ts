import 'server-only';
import type { Config } from '@/lib/core/config';
import { conditionalText } from '@/lib/http/conditional';
import { html } from './html';
import { pageDocument } from './profile-document';
import { pagePolicyOf, pageSecurityHeaders } from './security-headers';
import { tagLookupFormHtml } from './tag-lookup-html';

/*
 * The home page, as HTML with no script, like /@tag (lib/web/server/profile-page.ts): it has a
 * GET form and two links, so the App Router's runtime would be its only JavaScript
 * (docs/benchmarks.md, the Lighthouse section).
 */

/** The same for everyone: browsers revalidate (ETag), a CDN may keep a copy for a minute. */
const HOME_CACHE_CONTROL = 'public, max-age=0, s-maxage=60';

const DESCRIPTION = 'Own a human-readable name on Solana: @you → your wallet.';

export function homePageResponse(req: Request, config: Config): Response {
  const main = html`<h1>Your name on Solana</h1>
    <p class="lead">
      Claim a tag like <strong>@alice</strong>, point it at your wallet, and share one link people can pay.
    </p>
    <section class="card" aria-labelledby="lookup-heading">
      <h2 id="lookup-heading">Find someone</h2>
      ${tagLookupFormHtml()}
    </section>
    <section class="card" aria-labelledby="claim-heading">
      <h2 id="claim-heading">Claim yours</h2>
      <p>
        Connect a wallet, pick a tag that is free, and sign one transaction. Your public page is live at
        <code>/@yourtag</code> as soon as it lands.
      </p>
      <p class="actions">
        <a class="button" href="/register">Register a tag</a>
        <a class="button secondary" href="/settings">Edit your profile</a>
      </p>
    </section>`;
  const page = pageDocument({
    title: 'Your name on Solana',
    head: html`<meta name="description" content="${DESCRIPTION}" />`,
    main,
  });
  return conditionalText(req, page, 'text/html; charset=utf-8', {
    cacheControl: HOME_CACHE_CONTROL,
    headers: { ...pageSecurityHeaders(pagePolicyOf(config)) },
  });
}
