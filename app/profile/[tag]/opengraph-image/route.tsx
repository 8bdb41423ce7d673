// GET /profile/{tag}/opengraph-image — the /@tag share image (PNG, 1200×630), drawn once per
// tag and profile version and kept (lib/web/server/og-image-store.ts), with the version as its
// ETag (304 when the crawler has it) and, under `?v=<version>`, immutable for a year. Drawing
// counts as heavy work (503 `overloaded` past the bound). Drawn with next/og's bundled font only
// (ogSafeText keeps the text to what that font covers, so nothing is fetched from the network).
import { ImageResponse } from 'next/og';
import { ifNoneMatchHits } from '@/lib/http/conditional';
import { errorResponse } from '@/lib/http/error-response';
import { admitHeavyBytes, heavyClient, noteHeavyRequest, shedWhileBusy, withHeavyWork } from '@/lib/http/heavy-work';
import { getServices } from '@/lib/http/services';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import type { Identity } from '@/lib/features/identity/schemas';
import { loadPublicIdentity } from '@/lib/web/server/load-identity';
import { ogImageBytes, ogImageVersion } from '@/lib/web/server/og-image-store';
import { ogSafeText } from '@/lib/web/server/og-text';

export const dynamic = 'force-dynamic';

const SIZE = { width: 1200, height: 630 };
/** `?v=` names the current version: that URL shows this image for good. */
const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/**
 * The plain URL follows the profile: kept an hour by browsers and shared caches, then served
 * while revalidated (a 304 by the ETag, or the new version): crawlers cache share images for
 * days anyway, and a profile edit shows within the hour.
 */
const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

export async function GET(req: Request, { params }: { params: Promise<{ tag: string }> }): Promise<Response> {
  try {
    const { db, config } = await getServices();
    const identity = await loadPublicIdentity(db, (await params).tag);
    // A missing (or blocked) tag has no image, and costs no drawing; its answer is kept nowhere.
    if (!identity) return errorResponse(tagNotFound());
    const version = ogImageVersion(identity);
    const headers = {
      ETag: `"${version}"`,
      'Cache-Control': new URL(req.url).searchParams.get('v') === version ? VERSIONED_CACHE_CONTROL : CACHE_CONTROL,
    };
    if (ifNoneMatchHits(req.headers.get('if-none-match'), headers.ETag))
      return new Response(null, { status: 304, headers });
    // Whose heavy work this is (the door's fair shedding, lib/http/heavy-work.ts): the heaviest client is refused first.
    const client = heavyClient(req, config);
    shedWhileBusy('og image', config.heavyWork, client);
    noteHeavyRequest(client);
    const png = await ogImageBytes(version, () => withHeavyWork('og image', config.heavyWork, () => draw(identity)));
    admitHeavyBytes('og image', png.length, config.heavyWork); // its bytes out of the process's budget, or 503
    return new Response(new Uint8Array(png), { headers: { ...headers, 'Content-Type': 'image/png' } });
  } catch (err) {
    return errorResponse(err); // a database outage is a 503 with Retry-After, as on /v1; load shed, 503 `overloaded`
  }
}

/** The image's PNG bytes. */
async function draw(identity: Identity): Promise<Buffer> {
  const { tag } = identity;
  const name = ogSafeText(identity.displayName, 40);
  const bio = ogSafeText(identity.bio, 140);
  const badges = [identity.verified ? 'Verified' : null, identity.merchant ? 'Merchant' : null].filter(Boolean);
  const image = new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: 72,
        background: 'linear-gradient(135deg, #1b1040 0%, #5b3fd6 100%)',
        color: 'white',
      }}
    >
      <div style={{ display: 'flex', fontSize: 32, opacity: 0.8 }}>Identity Tags · Solana</div>
      <div style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ display: 'flex', fontSize: 96, fontWeight: 700 }}>{name || tag}</div>
        {name ? <div style={{ display: 'flex', fontSize: 48, opacity: 0.85 }}>{tag}</div> : null}
        {bio ? <div style={{ display: 'flex', fontSize: 30, marginTop: 24, opacity: 0.85 }}>{bio}</div> : null}
      </div>
      <div style={{ display: 'flex', gap: 16, fontSize: 28 }}>
        {badges.map((b) => (
          <div key={b} style={{ display: 'flex', border: '2px solid white', borderRadius: 999, padding: '6px 20px' }}>
            {b}
          </div>
        ))}
        <div style={{ display: 'flex', opacity: 0.8 }}>Pay with Solana Pay</div>
      </div>
    </div>,
    SIZE,
  );
  return Buffer.from(await image.arrayBuffer());
}
