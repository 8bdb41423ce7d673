import Link from 'next/link';
import { SITE_FOOTER_CODE, SITE_FOOTER_TAIL, SITE_FOOTER_TEXT, SITE_LINKS } from '@/lib/web/server/site-chrome';

export function SiteHeader() {
  return (
    <header className="site-header">
      <nav aria-label="Main">
        {SITE_LINKS.map((link) => (
          <Link key={link.href} className={link.brand ? 'brand' : undefined} href={link.href}>
            {link.label}
          </Link>
        ))}
      </nav>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      {SITE_FOOTER_TEXT}
      <code>{SITE_FOOTER_CODE}</code>
      {SITE_FOOTER_TAIL}
    </footer>
  );
}
