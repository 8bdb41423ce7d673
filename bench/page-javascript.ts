// First-load JavaScript of a page, as a browser fetches it: the module scripts its HTML names,
// raw, gzip -6 and brotli q11, and which of them carry wallet code (bench/wallet-markers.ts).
// Shared by the web and Lighthouse benchmarks and the browser tests (e2e/light-pages.spec.ts).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { WALLET_MARKERS } from './wallet-markers';

/**
 * The most first-load JavaScript (brotli q11) a wallet page (/register, /settings, the till)
 * loads before it is usable; its wallet code comes when the wallet dialog opens (issue 44).
 */
export const WALLET_PAGE_JS_BUDGET_BYTES = 170 * 1024;

export interface PageJs {
  path: string;
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  /** Markers of wallet code found, with the chunk each one is in. */
  walletCode: { marker: string; chunk: string }[];
}

/** The scripts a modern browser loads for `path`: `<script src>` without `nomodule`, each once. */
export async function pageJavaScript(appUrl: string, path: string): Promise<PageJs> {
  const res = await fetch(`${appUrl}${path}`);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  const html = await res.text();
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attrs = match[1];
    const src = /\bsrc="([^"]+)"/i.exec(attrs)?.[1];
    if (src && !/\bnomodule\b/i.test(attrs)) sources.add(new URL(src, `${appUrl}${path}`).href);
  }
  const result: PageJs = { path, scripts: sources.size, rawBytes: 0, gzipBytes: 0, brotliBytes: 0, walletCode: [] };
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(src)).arrayBuffer());
    result.rawBytes += body.length;
    result.gzipBytes += gzipSync(body, { level: 6 }).length; // what a client without brotli gets
    result.brotliBytes += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    const text = body.toString('utf8');
    for (const marker of WALLET_MARKERS) {
      if (text.includes(marker)) result.walletCode.push({ marker, chunk: new URL(src).pathname });
    }
  }
  return result;
}
