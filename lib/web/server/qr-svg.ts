import 'server-only';
import QRCode from 'qrcode';

/** Payment links repeat (one per profile): keep the most recent SVGs, ~1 ms each to draw. */
const MAX_CACHED = 1000;
const cache = new Map<string, Promise<string>>();

/** The QR code of `text` as SVG markup, drawn on the server. */
export function qrSvg(text: string): Promise<string> {
  let svg = cache.get(text);
  if (svg) {
    cache.delete(text); // re-insert: Map order is the eviction order
  } else {
    svg = QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    svg.catch(() => cache.delete(text));
  }
  cache.set(text, svg);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return svg;
}
