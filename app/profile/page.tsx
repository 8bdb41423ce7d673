import { redirect } from 'next/navigation';
import { TagLookupForm } from '@/components/site/TagLookupForm';
import { normalizePathTag, TAG_RULE_IN_WORDS } from '@/lib/core/tag';

export const metadata = { title: 'Look up a tag' };

// GET /profile?tag=… — the home page's lookup form: a valid tag goes to /@tag.
export default async function LookupPage({ searchParams }: { searchParams: Promise<{ tag?: string | string[] }> }) {
  const raw = (await searchParams).tag;
  const input = typeof raw === 'string' ? raw : '';
  const tag = normalizePathTag(input);
  if (tag) redirect(`/@${tag}`);
  return (
    <main id="main">
      <h1>Look up a tag</h1>
      <div className="card">
        <TagLookupForm defaultValue={input} error={input ? `Tags are ${TAG_RULE_IN_WORDS}.` : undefined} />
      </div>
    </main>
  );
}
