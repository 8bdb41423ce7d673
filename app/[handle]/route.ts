// GET /@{tag} — the public profile page (SPEC 3.1), rendered per view; any other one-segment
// path that no page serves gets the same not-found page.
import { getServices } from '@/lib/http/services';
import { profilePageResponse } from '@/lib/web/server/profile-page';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ handle: string }> }): Promise<Response> {
  return profilePageResponse(req, (await params).handle, await getServices());
}
