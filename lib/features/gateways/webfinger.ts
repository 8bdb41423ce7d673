import 'server-only';
import { AppError } from '@/lib/core/errors';
import { isCanonicalTag } from '@/lib/core/tag';
import type { Db } from '@/lib/db';
import { findActiveIdentityAtSlot } from '@/lib/features/identity/active';
import type { AtSlot } from '@/lib/db/indexed-slot';

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

/** A resource's tag and the host it names. */
export interface NamedTag {
  tag: string;
  host: string;
}

/**
 * The tag a resource names: `acct:alice@host` (also `acct:@alice@host`, as people type it), or
 * the profile page `https://host/@alice`, on one of `hosts`. Null for anything else.
 */
export function tagOfResource(resource: string, hosts: readonly string[]): NamedTag | null {
  const acct = /^acct:@?([^@/]+)@([^@/]+)$/i.exec(resource);
  if (acct) return named(acct[1]!, acct[2]!.toLowerCase(), hosts);
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return null;
  }
  const page = /^\/(?:@|%40)([^/]+)\/?$/i.exec(url.pathname);
  if (!page || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  return named(page[1]!, url.host, hosts);
}

function named(label: string, host: string, hosts: readonly string[]): NamedTag | null {
  const tag = label.toLowerCase();
  return isCanonicalTag(tag) && hosts.includes(host) ? { tag, host } : null;
}

/**
 * GET /.well-known/webfinger?resource=…[&rel=…]: the tag's JRD, its links filtered to `rels`
 * when any is given (RFC 7033 §4.3); 400 without a resource; null for no live tag of this host.
 * The host is APP_URL's, or the one the request was sent to: a WebFinger query goes to the host
 * its resource names (RFC 7033 §4.1), whatever name the deployment is reached by. The links
 * always point at APP_URL, the public origin.
 */
export async function webfingerJrd(
  db: Db,
  { origin, requestHost }: { origin: URL; requestHost: string },
  resource: string | undefined,
  rels: readonly string[],
): Promise<AtSlot<Jrd | null>> {
  if (!resource) throw new AppError('invalid_request', '`resource` is required, e.g. acct:alice@' + origin.host);
  const asked = tagOfResource(resource, [origin.host, requestHost.toLowerCase()]);
  const { value: row, indexedSlot } = await findActiveIdentityAtSlot(db, asked?.tag ?? '');
  if (!asked || !row) return { value: null, indexedSlot };
  const { tag, host } = asked;
  const page = `${origin.origin}/@${tag}`;
  const links: Jrd['links'] = [{ rel: PROFILE_PAGE_REL, type: 'text/html', href: page }];
  if (row.avatar) links.push({ rel: AVATAR_REL, href: row.avatar });
  return {
    value: {
      subject: `acct:${tag}@${host}`,
      aliases: [page],
      links: rels.length ? links.filter((link) => rels.includes(link.rel)) : links,
    },
    indexedSlot,
  };
}
