import 'server-only';
import type { Identity } from '@/lib/features/identity/schemas';
import { html, type Html } from './html';
import { siteFooterHtml, siteHeaderHtml } from './site-chrome';

/*
 * The whole HTML document of a page the /@tag handler sends: the head the App Router's root
 * layout would write (title template, viewport, theme colours, the stylesheet), the site's
 * header and footer, and one external script. No inline script: the page's CSP allows
 * scripts from this origin only.
 */

const SITE_NAME = 'Identity Tags';

/**
 * The version of public/site.css and public/profile.js that next.config.ts hashed when the
 * app was built: their URLs change with their content, so they are cached for good.
 */
function assetUrl(path: string): string {
  const version = process.env.PUBLIC_ASSETS_VERSION;
  return version ? `${path}?v=${version}` : path;
}

export const STYLESHEET_PATH = '/site.css';
export const PROFILE_SCRIPT_PATH = '/profile.js';

/** The site's icons and web app manifest (public/), named in every page's head, ours and the App Router's (app/layout.tsx). */
export const SITE_ICONS = {
  favicon: '/favicon.ico',
  svg: '/icon.svg',
  apple: '/apple-touch-icon.png',
  manifest: '/manifest.webmanifest',
} as const;

export function stylesheetUrl(): string {
  return assetUrl(STYLESHEET_PATH);
}

interface DocumentInput {
  title: string;
  /** More of `<head>`: description, canonical, Open Graph. */
  head?: Html;
  main: Html;
  /** public/profile.js (copy buttons). */
  script?: boolean;
}

export function pageDocument({ title, head, main, script }: DocumentInput): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${SITE_NAME}</title>
        ${head ?? ''}
        <meta name="theme-color" media="(prefers-color-scheme: light)" content="#f7f7fb" />
        <meta name="theme-color" media="(prefers-color-scheme: dark)" content="#111217" />
        <link rel="icon" href="${SITE_ICONS.favicon}" sizes="32x32" />
        <link rel="icon" href="${SITE_ICONS.svg}" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="${SITE_ICONS.apple}" />
        <link rel="manifest" href="${SITE_ICONS.manifest}" />
        <link rel="stylesheet" href="${stylesheetUrl()}" />
        ${script ? html`<script src="${assetUrl(PROFILE_SCRIPT_PATH)}" defer></script>` : ''}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>${siteHeaderHtml()}
        <main id="main">${main}</main>
        ${siteFooterHtml()}
      </body>
    </html>`.text;
}

/** The profile's description, title and Open Graph / Twitter card, as the page's head and its image describe it. */
export function profileHeadHtml(identity: Identity, appUrl: URL): { title: string; head: Html } {
  const name = identity.displayName ?? identity.tag;
  const title = identity.displayName ? `${identity.displayName} (${identity.tag})` : identity.tag;
  const description = identity.bio ?? `Pay ${name} on Solana with ${identity.tag}.`;
  const url = new URL(`/${identity.tag}`, appUrl).href;
  const image = new URL(`/profile/${identity.tag.slice(1)}/opengraph-image`, appUrl).href;
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    html`<meta ${attribute === 'name' ? html`name` : html`property`}="${key}" content="${content}" />`;
  return {
    title,
    head: html`${meta('name', 'description', description)}<link rel="canonical" href="${url}" />
      ${meta('property', 'og:title', title)}${meta('property', 'og:description', description)}${meta('property', 'og:url', url)}${meta('property', 'og:site_name', SITE_NAME)}${meta('property', 'og:type', 'profile')}
      ${meta('property', 'og:image', image)}${meta('property', 'og:image:width', '1200')}${meta('property', 'og:image:height', '630')}${meta('property', 'og:image:type', 'image/png')}${meta('property', 'og:image:alt', 'Identity Tags profile')}
      ${meta('name', 'twitter:card', 'summary_large_image')}${meta('name', 'twitter:title', title)}${meta('name', 'twitter:description', description)}${meta('name', 'twitter:image', image)}`,
  };
}

/** The not-found page's head: never indexed. */
export const NOT_FOUND_HEAD = html`<meta name="robots" content="noindex" />`;
