import 'server-only';
import { html, type Html } from './html';

/*
 * The header and footer every page shows: the App Router's pages render them with React
 * (components/site/SiteChrome.tsx), the /@tag handler as HTML (lib/web/server/profile-document.ts),
 * both from these lists.
 */

export const SITE_LINKS: readonly { href: string; label: string; brand?: true }[] = [
  { href: '/', label: 'Identity Tags', brand: true },
  { href: '/register', label: 'Register' },
  { href: '/settings', label: 'Your profiles' },
];

export const SITE_FOOTER_TEXT = 'Tags live on Solana; profiles are kept by this service. Developers: ';
export const SITE_FOOTER_CODE = '/v1';
export const SITE_FOOTER_TAIL = ' JSON API.';

export function siteHeaderHtml(): Html {
  const links = SITE_LINKS.map(
    (link) => html`<a${link.brand ? html` class="brand"` : ''} href="${link.href}">${link.label}</a>`,
  );
  return html`<header class="site-header"><nav aria-label="Main">${links}</nav></header>`;
}

export function siteFooterHtml(): Html {
  return html`<footer class="site-footer">
    ${SITE_FOOTER_TEXT}<code>${SITE_FOOTER_CODE}</code>${SITE_FOOTER_TAIL}
  </footer>`;
}
