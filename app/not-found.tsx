import Link from 'next/link';
import { TagLookupForm } from '@/components/site/TagLookupForm';

export const metadata = { title: 'Not found' };

// One page for every missing thing, a missing tag and a blocked one alike (SPEC 3.1).
export default function NotFound() {
  return (
    <main id="main">
      <h1>Nothing here</h1>
      <p className="lead">There is no page at this address. If you were looking for a tag, nobody has it.</p>
      <div className="card">
        <TagLookupForm />
      </div>
      <p>
        <Link href="/register">Register a tag</Link> · <Link href="/">Home</Link>
      </p>
    </main>
  );
}
