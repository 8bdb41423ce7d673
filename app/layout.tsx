import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { SiteFooter, SiteHeader } from '@/components/site/SiteChrome';
import { SITE_ICONS, stylesheetUrl } from '@/lib/web/server/profile-document';

// No wallet code here: the public pages (/, /@tag) must not download it. The wallet
// providers live in app/(app)/layout.tsx, around /register and /settings only.
export const metadata: Metadata = {
  title: { default: 'Identity Tags', template: '%s · Identity Tags' },
  description: 'Own a human-readable name on Solana: @you → your wallet.',
  icons: {
    icon: [
      { url: SITE_ICONS.favicon, sizes: '32x32' },
      { url: SITE_ICONS.svg, type: 'image/svg+xml' },
    ],
    apple: SITE_ICONS.apple,
  },
  manifest: SITE_ICONS.manifest,
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f7f7fb' },
    { media: '(prefers-color-scheme: dark)', color: '#111217' },
  ],
};

// Every page renders per request: proxy.ts gives each one a nonce for its inline scripts,
// which Next.js writes only into a page it renders (a prerendered page has none).
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <head>
        {/* public/site.css, shared with the /@tag handler's pages (lib/web/server/profile-document.ts). */}
        <link rel="stylesheet" href={stylesheetUrl()} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader />
        {children}
        <SiteFooter />
      </body>
    </html>
  );
}
