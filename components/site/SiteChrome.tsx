import Link from 'next/link';

export function SiteHeader() {
  return (
    <header className="site-header">
      <nav aria-label="Main">
        <Link className="brand" href="/">
          Identity Tags
        </Link>
        <Link href="/register">Register</Link>
        <Link href="/settings">Your profiles</Link>
      </nav>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      Tags live on Solana; profiles are kept by this service. Developers: <code>/v1</code> JSON API.
    </footer>
  );
}
