import { z } from 'zod';
import { normalizePathTag, normalizeTag, TAG_RULE } from './tag-rules';

export * from './tag-rules';

/**
 * A tag in a request body (POST /v1/register, batch resolve, primary): the bare tag, trimmed
 * and lower-cased, parsed to its canonical form. The one schema of a body tag.
 */
export const TagBody = z
  .string()
  .max(64)
  .transform((raw, ctx): string => {
    const tag = normalizeTag(raw);
    if (tag === null) {
      ctx.addIssue({ code: 'custom', message: `must be a tag: ${TAG_RULE}` });
      return z.NEVER;
    }
    return tag;
  })
  .meta({ description: `A tag without a leading \`@\`: ${TAG_RULE}. Trimmed and lower-cased.`, example: 'alice' });

/**
 * A tag in a path (/v1/identity/{tag}, /@tag): as TagBody, and one leading `@` (or `%40`) is
 * accepted. The one schema of a path tag.
 */
export const TagPath = z
  .string()
  .transform((raw, ctx): string => {
    const tag = normalizePathTag(raw);
    if (tag === null) {
      ctx.addIssue({ code: 'custom', message: `must be a tag: ${TAG_RULE}, optionally with a leading @` });
      return z.NEVER;
    }
    return tag;
  })
  .meta({ description: 'The tag, with or without a leading `@` (or `%40`), any case', example: 'alice' });
