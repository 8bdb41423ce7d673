import Link from 'next/link';
import { TagLookupForm } from '@/components/site/TagLookupForm';

export default function HomePage() {
  return (
    <main id="main">
      <h1>Your name on Solana</h1>
      <p className="lead">
        Claim a tag like <strong>@alice</strong>, point it at your wallet, and share one link people can pay.
      </p>
      <section className="card" aria-labelledby="lookup-heading">
        <h2 id="lookup-heading">Find someone</h2>
        <TagLookupForm />
      </section>
      <section className="card" aria-labelledby="claim-heading">
        <h2 id="claim-heading">Claim yours</h2>
        <p>
          Connect a wallet, pick a tag that is free, and sign one transaction. Your public page is live at{' '}
          <code>/@yourtag</code> as soon as it lands.
        </p>
        <p className="actions">
          <Link className="button" href="/register">
            Register a tag
          </Link>
          <Link className="button secondary" href="/settings">
            Edit your profile
          </Link>
        </p>
      </section>
    </main>
  );
}
