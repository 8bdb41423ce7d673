import 'client-only';
/** Display helpers shared by the pages (pure, no DOM). */

const LAMPORTS_PER_SOL = 1_000_000_000;

/** Lamports (an integer) → "1.5 SOL", without floating-point division. */
export function formatSol(lamports: number | bigint): string {
  const value = BigInt(lamports);
  const whole = value / BigInt(LAMPORTS_PER_SOL);
  const frac = (value % BigInt(LAMPORTS_PER_SOL)).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''} SOL`;
}

/** `9xQe…VFin`: a public key short enough for a sentence (the full key goes in `title`). */
export function shortKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 4)}…${key.slice(-4)}` : key;
}
