import { describe, expect, inject, it } from 'vitest';

// Lighthouse's best practices fail a page whose /favicon.ico is a 404; an installable site
// names a web app manifest with the app's name and icons. Every page names them in its head:
// the App Router's (app/layout.tsx) and the /@tag handler's (lib/web/server/profile-document.ts).
const appUrl = () => inject('appUrl');

describe('the site icons and the web app manifest', () => {
  it.each([
    ['/favicon.ico', /^image\/(x-icon|vnd\.microsoft\.icon)/],
    ['/icon.svg', /^image\/svg\+xml/],
    ['/apple-touch-icon.png', /^image\/png/],
    ['/icon-192.png', /^image\/png/],
    ['/icon-512.png', /^image\/png/],
  ])('%s answers 200 with its image type', async (path, type) => {
    const res = await fetch(`${appUrl()}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('the manifest names the app and icons that exist', async () => {
    const res = await fetch(`${appUrl()}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as { name: string; short_name: string; icons: { src: string }[] };
    expect(manifest.name).toBe('Identity Tags');
    expect(manifest.short_name).toBeTruthy();
    for (const icon of manifest.icons) expect((await fetch(`${appUrl()}${icon.src}`)).status).toBe(200);
  });

  it.each(['/', '/register', '/@nobody_has_this_tag'])(
    '%s names the favicon, the icon and the manifest in its head',
    async (path) => {
      const page = await (await fetch(`${appUrl()}${path}`)).text();
      expect(page).toMatch(/<link rel="icon" href="\/favicon\.ico"/);
      expect(page).toMatch(/<link rel="icon" href="\/icon\.svg"/);
      expect(page).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);
    },
  );
});
