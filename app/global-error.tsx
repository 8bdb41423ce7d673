'use client';

/**
 * The last resort, when even the root layout fails: a whole document of its own (it replaces
 * the layout), with no stylesheet it could fail to load.
 */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '36rem', margin: '4rem auto', padding: '0 1rem' }}>
        <main data-testid="error-page">
          <h1>Something went wrong</h1>
          <p>This page cannot be shown right now. Please try again in a moment.</p>
          <p>
            <button type="button" onClick={() => reset()}>
              Try again
            </button>{' '}
            · <a href="/">Home</a>
          </p>
          {error.digest ? <p>Reference: {error.digest}</p> : null}
        </main>
      </body>
    </html>
  );
}
