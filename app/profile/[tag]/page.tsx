import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { ProfileView } from '@/components/profile/ProfileView';
import { getConfig } from '@/lib/config';
import { loadPublicIdentity } from '@/lib/web/load-identity';

// /@tag (rewritten here by next.config.ts): the public profile, server-rendered per request.
type Props = { params: Promise<{ tag: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  await connection();
  const identity = await loadPublicIdentity((await params).tag);
  const metadataBase = getConfig().appUrl;
  if (!identity) return { metadataBase, title: 'Not found', robots: { index: false } };
  const name = identity.displayName ?? identity.tag;
  const title = identity.displayName ? `${identity.displayName} (${identity.tag})` : identity.tag;
  const description = identity.bio ?? `Pay ${name} on Solana with ${identity.tag}.`;
  return {
    metadataBase,
    title,
    description,
    alternates: { canonical: `/${identity.tag}` },
    openGraph: { type: 'profile', title, description, url: `/${identity.tag}`, siteName: 'Identity Tags' },
    twitter: { card: 'summary_large_image', title, description },
  };
}

export default async function ProfilePage({ params }: Props) {
  await connection();
  const identity = await loadPublicIdentity((await params).tag);
  if (!identity) notFound();
  return (
    <main id="main">
      <ProfileView identity={identity} cluster={getConfig().solana.cluster} />
    </main>
  );
}
