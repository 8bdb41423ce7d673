import { notFoundContentHtml } from '@/lib/web/server/tag-lookup-html';

export const metadata = { title: 'Not found' };

// One page for every missing thing, a missing tag and a blocked one alike (SPEC 3.1): the
// same markup the /@tag handler sends for a tag it does not show.
export default function NotFound() {
  return <main id="main" dangerouslySetInnerHTML={{ __html: notFoundContentHtml().text }} />;
}
