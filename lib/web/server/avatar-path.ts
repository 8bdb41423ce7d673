import 'server-only';
/*
 * Where pages load a profile's avatar from: the app's own origin (GET /api/avatar/{tag}, see
 * lib/web/server/avatar-image.ts), never the host its owner chose.
 */

/** A short, stable token of the avatar URL, so the page's image address changes when it does. */
function avatarVersion(url: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** Where a page loads the avatar of `tag` (canonical, no @) from: the app's own origin. */
export function avatarPath(tag: string, url: string): string {
  return `/api/avatar/${encodeURIComponent(tag)}?v=${avatarVersion(url)}`;
}
