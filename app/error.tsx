'use client';

import Link from 'next/link';

/**
 * What a page shows when it cannot be rendered (the database down or timed out, a bug): a
 * plain apology and a way to try again, never a stack trace. The layout around it still
 * renders; the server logged the error with its digest.
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" data-testid="error-page">
      <h1>Something went wrong</h1>
      <p className="lead">
        This page cannot be shown right now. Nothing you did caused it; please try again in a moment.
      </p>
      <p>
        <button type="button" className="button" onClick={() => reset()}>
          Try again
        </button>{' '}
        · <Link href="/">Home</Link>
      </p>
      {error.digest ? <p className="hint">Reference: {error.digest}</p> : null}
    </main>
  );
}
