// GET / — the home page, plain HTML with no script (lib/web/server/home-page.ts).
import { getConfig } from '@/lib/core/config';
import { homePageResponse } from '@/lib/web/server/home-page';

export const dynamic = 'force-dynamic';

export function GET(req: Request): Response {
  return homePageResponse(req, getConfig());
}
