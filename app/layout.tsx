import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { SiteFooter, SiteHeader } from '@/components/site/SiteChrome';
import './globals.css';

// No wallet code here: the public pages (/, /@tag) must not download it. The wallet
// providers live in app/(app)/layout.tsx, around /register and /settings only.
export const metadata: Metadata = {
  title: { default: 'Identity Tags', template: '%s · Identity Tags' },
  description: 'Own a human-readable name on Solana: @you → your wallet.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f7f7fb' },
    { media: '(prefers-color-scheme: dark)', color: '#111217' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
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
