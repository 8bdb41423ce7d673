// POST /api/internal/revalidate — our other processes (the admin CLI) expire cached /@tag pages
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { json, withApi } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { resolveAuthSecret } from '@/lib/auth/secret';
import { expireProfilePages, isRevalidationAuthorized, MAX_TAGS_PER_REVALIDATION } from '@/lib/feed/profile-pages';
import { TagBody } from '@/lib/identity/tag';

const RevalidateBody = z.strictObject({ tags: z.array(TagBody).min(1).max(MAX_TAGS_PER_REVALIDATION) });

export const POST = withApi(async (req, { services: { config } }) => {
  if (!isRevalidationAuthorized(req.headers.get('authorization'), resolveAuthSecret(config))) {
    throw new AppError('unauthorized', 'This route is for the service itself.', { 'WWW-Authenticate': 'Bearer realm="internal"' });
  }
  const { tags } = parseWith(RevalidateBody, await readJson(req));
  await expireProfilePages(tags);
  return json({ revalidated: tags.map((tag) => `@${tag}`) });
});
