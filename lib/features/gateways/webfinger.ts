import 'server-only';
import { AppError } from '@/lib/core/errors';
import { isCanonicalTag } from '@/lib/core/tag';
import type { Db } from '@/lib/db';
import { findActiveIdentityAtSlot } from '@/lib/features/identity/active';
import { tagNotFound } from '@/lib/features/identity/get-identity';

/*
 * WebFinger (RFC 7033) at /.well-known/webfinger: how Mastodon and the rest of the fediverse look
 * up `alice@host`. A tag answers a JRD naming its /@tag page and its avatar; a missing or blocked
 * tag, or a resource of another host, is the one 404 of every public read.
 */

export const PROFILE_PAGE_REL = 'http://webfinger.net/rel/profile-page';
export const AVATAR_REL = 'http://webfinger.net/rel/avatar';

/** The JSON Resource Descriptor (RFC 7033 §4.4) of a tag. */
export interface Jrd {
  subject: string;
  aliases: string[];
  links: { rel: string; type?: string; href: string }[];
}

/**
 * The tag a resource names on this host: `acct:alice@host` (also `acct:@alice@host`, as people
 * type it), or the profile page `https://host/@alice`. Null for anything else.
 */
export function tagOfResource(resource: string, origin: URL): string | null {
  const acct = /^acct:@?([^@/]+)@([^@/]+)$/i.exec(resource);
  if (acct) return acct[2]!.toLowerCase() === origin.host ? canonical(acct[1]!) : null;
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return null;
  }
  const page = /^\/(?:@|%40)([^/]+)\/?$/i.exec(url.pathname);
  if (!page || url.host !== origin.host || (url.protocol !== 'https:' && url.protocol !== origin.protocol)) return null;
  return canonical(page[1]!);
}

function canonical(label: string): string | null {
  const tag = label.toLowerCase();
  return isCanonicalTag(tag) ? tag : null;
}

/**
 * GET /.well-known/webfinger?resource=…[&rel=…]: the tag's JRD, its links filtered to `rels`
 * when any is given (RFC 7033 §4.3); 400 without a resource, 404 for no live tag of this host.
 */
export async function webfingerJrd(
  db: Db,
  origin: URL,
  resource: string | undefined,
  rels: readonly string[],
): Promise<{ value: Jrd; indexedSlot: string }> {
  if (!resource) throw new AppError('invalid_request', '`resource` is required, e.g. acct:alice@' + origin.host);
  const tag = tagOfResource(resource, origin);
  const { row, indexedSlot } = await findActiveIdentityAtSlot(db, tag ?? '');
  if (!tag || !row) throw tagNotFound();
  const page = `${origin.origin}/@${tag}`;
  const links: Jrd['links'] = [{ rel: PROFILE_PAGE_REL, type: 'text/html', href: page }];
  if (row.avatar) links.push({ rel: AVATAR_REL, href: row.avatar });
  return {
    value: {
      subject: `acct:${tag}@${origin.host}`,
      aliases: [page],
      links: rels.length ? links.filter((link) => rels.includes(link.rel)) : links,
    },
    indexedSlot,
  };
}
