/**
 * Compute-unit limits of the transactions the service builds (DESIGN "Operating"): what each
 * instruction costs at worst, as bench/program-cu-sample.ts measures the committed build
 * (1,000 random tags of 3–32 bytes at a fresh program id, LiteSVM with every feature on),
 * plus the compute-budget instructions themselves, plus a margin (docs/integrators.md, "Compute budget and fees").
 * The program's costs are deterministic for one build and one feature set; the margin is
 * for what can change under a deployed transaction builder: the runtime's prices.
 *
 * Browser-safe (the register page shows the most a registration costs).
 */

/** Each compute-budget instruction runs as a builtin charged this many units. */
export const COMPUTE_BUDGET_INSTRUCTION_UNITS = 150;
/** The two every built transaction carries. */
const BUDGET_UNITS = 2 * COMPUTE_BUDGET_INSTRUCTION_UNITS;
/** Headroom over the measured worst case, in percent. */
export const COMPUTE_UNIT_MARGIN_PERCENT = 10;

/**
 * register_tag at worst for a tag: the pre-funded path (a PDA someone sent lamports to:
 * Transfer + Allocate + Assign instead of one CreateAccount) with a 3-byte tag at bump 255, plus
 * the payout rules' checks of the wallet account; then each tag byte (the tag rule's loop, the
 * copies, the hash) and each bump tried beyond 255 (one sha256 and one curve check) at their worst.
 * The measurements behind each figure: `npm run bench -- cu`, bench/results/figures-once-in-comments.md.
 */
export const REGISTER_TAG_UNITS = { base: 4_800, perTagByte: 10, perBumpTried: 345 } as const;

/**
 * Lifecycle instructions at worst over the sample (32-byte tags cost the most: the hash and the
 * log line), the build with the payout rules (`npm run bench -- cu`, bench/results/figures-once-in-comments.md):
 * set_wallet checks the wallet account, release_tag writes the resting record and reads the Clock.
 */
export const LIFECYCLE_UNITS = {
  set_wallet: 530,
  offer_transfer: 490,
  cancel_transfer: 490,
  accept_transfer: 495,
  release_tag: 995,
} as const;
export type LifecycleInstructionName = keyof typeof LIFECYCLE_UNITS;

/** A limit for instructions that cost `programUnits` at worst: the budget instructions added, then the margin, rounded up to 100. */
export function limitFor(programUnits: number): number {
  const units = programUnits + BUDGET_UNITS;
  return Math.ceil((units * (100 + COMPUTE_UNIT_MARGIN_PERCENT)) / 100 / 100) * 100;
}

/** The limit of a register_tag transaction for a canonical `tag` whose record PDA has canonical `bump`. */
export function registerTagLimit(tag: string, bump: number): number {
  const { base, perTagByte, perBumpTried } = REGISTER_TAG_UNITS;
  const tagBytes = new TextEncoder().encode(tag).length;
  return limitFor(base + perTagByte * (tagBytes - 3) + perBumpTried * (255 - bump));
}

/** The limit of a transaction with one lifecycle instruction. */
export function lifecycleLimit(name: LifecycleInstructionName): number {
  return limitFor(LIFECYCLE_UNITS[name]);
}
