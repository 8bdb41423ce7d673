import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ProfileView } from '@/components/profile/ProfileView';
import { getConfig } from '@/lib/config';
import { payerWarnings } from '@/lib/identity/payer-warnings';
import { loadPublicIdentity, loadSignalFacts } from '@/lib/web/load-identity';

// /@tag (rewritten here by next.config.ts): the public profile, rendered on its first view and
// then served from Next's cache until a change to the tag expires it (lib/feed/profile-pages.ts):
// a busy profile costs no database read per view, and the first view after a change shows it.
type Props = { params: Promise<{ tag: string }> };

// Literal, as Next requires; the same value as PROFILE_REVALIDATE_SECONDS (a backstop only).
export const revalidate = 300;

/** None at build time: each profile is rendered on demand, then cached. */
export function generateStaticParams(): { tag: string }[] {
  return [];
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
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
  const { tag } = await params;
  const [identity, signals] = await Promise.all([loadPublicIdentity(tag), loadSignalFacts(tag)]);
  if (!identity) notFound();
  const config = getConfig();
  // Decided when the page renders; the page is kept at most PROFILE_REVALIDATE_SECONDS, so a warning outlives its window by that much at most.
  const warnings = signals ? payerWarnings(signals, new Date(), config.walletChangeWarningMs) : [];
  return (
    <main id="main">
      <ProfileView identity={identity} cluster={config.solana.cluster} warnings={warnings} />
    </main>
  );
}
