import { qrSvg } from '@/lib/web/qr-svg';

/** The Solana Pay link as a QR code, rendered to SVG on the server (no client code). */
export async function PayQrCode({ link, label }: { link: string; label: string }) {
  const svg = await qrSvg(link);
  // The markup is qrcode's own output for our link: rects and paths, no user text.
  return <div className="qr" role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: svg }} />;
}
