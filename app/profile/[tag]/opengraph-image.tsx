import { ImageResponse } from 'next/og';
import { connection } from 'next/server';
import { loadPublicIdentity } from '@/lib/web/load-identity';
import { ogSafeText } from '@/lib/web/og-text';

// The /@tag share image: drawn with next/og's bundled font only (ogSafeText keeps the text
// to what that font covers, so nothing is fetched from the network).
export const alt = 'Identity Tags profile';
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';

export default async function Image({ params }: { params: Promise<{ tag: string }> }) {
  await connection();
  const identity = await loadPublicIdentity((await params).tag);
  const tag = identity?.tag ?? 'Identity Tags';
  const name = ogSafeText(identity?.displayName, 40);
  const bio = ogSafeText(identity?.bio, 140);
  const badges = [identity?.verified ? 'Verified' : null, identity?.merchant ? 'Merchant' : null].filter(Boolean);
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
          <div style={{ display: 'flex', opacity: 0.8 }}>{identity ? 'Pay with Solana Pay' : ''}</div>
        </div>
      </div>
    ),
    size,
  );
}
