// GET /profile/{tag}/opengraph-image — the /@tag share image (PNG, 1200×630), drawn per
// request from one indexed read. Drawn with next/og's bundled font only (ogSafeText keeps the
// text to what that font covers, so nothing is fetched from the network).
import { ImageResponse } from 'next/og';
import { errorResponse } from '@/lib/http/error-response';
import { getServices } from '@/lib/http/services';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import { loadPublicIdentity } from '@/lib/web/server/load-identity';
import { ogSafeText } from '@/lib/web/server/og-text';
import { PROFILE_CACHE_CONTROL } from '@/lib/web/server/profile-page';

export const dynamic = 'force-dynamic';

const SIZE = { width: 1200, height: 630 };

export async function GET(_req: Request, { params }: { params: Promise<{ tag: string }> }): Promise<Response> {
  let identity;
  try {
    identity = await loadPublicIdentity((await getServices()).db, (await params).tag);
  } catch (err) {
    return errorResponse(err); // a database outage is a 503 with Retry-After, as on /v1
  }
  // A missing (or blocked) tag has no image, and costs no drawing; its answer is kept nowhere.
  if (!identity) return errorResponse(tagNotFound());
  const { tag } = identity;
  const name = ogSafeText(identity.displayName, 40);
  const bio = ogSafeText(identity.bio, 140);
  const badges = [identity.verified ? 'Verified' : null, identity.merchant ? 'Merchant' : null].filter(Boolean);
  return new ImageResponse(
    (
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
      </div>
    ),
    { ...SIZE, headers: { 'Cache-Control': PROFILE_CACHE_CONTROL } },
  );
}
