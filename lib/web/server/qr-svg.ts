import 'server-only';
import QRCode from 'qrcode';
import { rememberRecent } from '@/lib/core/remember-recent';

/** Payment links repeat (one per profile): keep the most recent SVGs, ~1 ms each to draw (rememberRecent). */
const MAX_CACHED = 1000;
const cache = new Map<string, Promise<string>>();

/** The QR code of `text` as SVG markup, drawn on the server. */
export function qrSvg(text: string): Promise<string> {
  return rememberRecent(cache, text, () => drawQrSvg(text), MAX_CACHED);
}

function drawQrSvg(text: string): Promise<string> {
  const svg = QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  svg.catch(() => cache.delete(text)); // a failure is drawn again next time
  return svg;
}
