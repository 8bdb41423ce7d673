import 'server-only';
import { conditionalText } from '@/lib/http/conditional';
import type { Config } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { perHandle } from '@/lib/db/batch';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, isPoolBusy } from '@/lib/core/database-errors';
import { logger } from '@/lib/observability/logger';
import { html } from './html';
import { payerWarnings } from '@/lib/features/identity/payer-warnings';
import { loadProfile } from './load-identity';
import { NOT_FOUND_HEAD, pageDocument, profileHeadHtml } from './profile-document';
import { profileViewHtml } from './profile-view';
import { pagePolicyOf, pageSecurityHeaders } from './security-headers';
import { notFoundContentHtml } from './tag-lookup-html';

/*
 * /@tag, rendered on every view from one indexed read (DESIGN.md "Serving pages"): no page
 * cache, so a change shows on every instance's next view with nothing to expire. The answer
 * carries an ETag (a browser's repeat view is a 304) and lets a shared cache (a CDN) keep it
 * for 1 s at most, the coherence the service promises.
 */

/** 200 answers: browsers revalidate every view (ETag); a CDN may serve one copy for 1 s. */
export const PROFILE_CACHE_CONTROL = 'public, max-age=0, s-maxage=1';
/** A missing tag is never kept anywhere: it may be registered the next second. */
const NOT_FOUND_CACHE_CONTROL = 'no-store';

const HTML = 'text/html; charset=utf-8';

/** The page's security headers, built once per configuration: they name nothing of the request (a fixed CSP, no nonce). */
const pageHeadersOf = perHandle((config: Config) => pageSecurityHeaders(pagePolicyOf(config)));

/** Whether a one-segment path names a tag (`/@alice`, `/%40alice`); anything else is not found without a read. */
function namesTag(segment: string): boolean {
  return segment.startsWith('@') || segment.slice(0, 3).toLowerCase() === '%40';
}

/** The answer to GET /{segment}: the profile of the tag it names, or the not-found page. */
export async function profilePageResponse(
  req: Request,
  segment: string,
  { db, config }: { db: Db; config: Config },
): Promise<Response> {
  const security = pageHeadersOf(config);
  try {
    const profile = namesTag(segment) ? await loadProfile(db, segment) : null;
    if (!profile) {
      const page = pageDocument({ title: 'Not found', head: NOT_FOUND_HEAD, main: notFoundContentHtml() });
      return new Response(page, {
        status: 404,
        headers: { 'Content-Type': HTML, 'Cache-Control': NOT_FOUND_CACHE_CONTROL, ...security },
      });
    }
    const { identity, signals } = profile;
    const { title, head } = profileHeadHtml(identity, config.appUrl);
    // Decided per view, from the signals and the time.
    const warnings = payerWarnings(signals, new Date());
    const page = pageDocument({
      title,
      head,
      main: await profileViewHtml(identity, config.solana.cluster, warnings),
      script: true,
    });
    return conditionalText(req, page, HTML, { cacheControl: PROFILE_CACHE_CONTROL, headers: security });
  } catch (err) {
    const busy = isPoolBusy(err);
    if (!busy && !isDatabaseUnavailable(err)) throw err;
    logger.warn(
      { err },
      busy ? 'load shedding: every database connection of the pool is busy' : 'database unavailable',
    );
    const main = html`<h1>Something went wrong</h1>
      <p class="lead">
        This page cannot be shown right now. Nothing you did caused it; please try again in a moment.
      </p>`;
    return new Response(pageDocument({ title: 'Unavailable', head: NOT_FOUND_HEAD, main }), {
      status: 503,
      headers: {
        'Content-Type': HTML,
        'Cache-Control': 'no-store',
        'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
        ...security,
      },
    });
  }
}
