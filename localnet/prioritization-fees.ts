/**
 * What a validator's prioritization fee cache holds and getRecentPrioritizationFees answers
 * from (Agave's PrioritizationFeeCache): for each of the last 150 slots, the lowest
 * compute-unit price of the slot's transactions, and for each account they write, the lowest
 * price among the transactions that write it. Asked about some accounts, a slot's fee is the
 * slot's lowest price, raised to the highest of those accounts' lowest prices (an account
 * whose writers all paid more makes the slot dearer for it). Kept in memory, as a node does:
 * a restart starts empty.
 */

/** Slots a node keeps (MAX_NUM_RECENT_BLOCKS). */
export const RECENT_SLOTS = 150;

interface SlotFees {
  lowest: bigint;
  byAccount: Map<string, bigint>;
}

export class PrioritizationFees {
  private readonly slots = new Map<number, SlotFees>();

  /** One transaction of `slot`, paying `microLamports` per unit and write-locking `writable`. */
  record(slot: number, microLamports: bigint, writable: readonly string[]): void {
    let fees = this.slots.get(slot);
    if (!fees) {
      fees = { lowest: microLamports, byAccount: new Map() };
      this.slots.set(slot, fees);
      this.prune();
    }
    if (microLamports < fees.lowest) fees.lowest = microLamports;
    for (const account of writable) {
      const known = fees.byAccount.get(account);
      if (known === undefined || microLamports < known) fees.byAccount.set(account, microLamports);
    }
  }

  /** The slots it holds, oldest first. */
  recentSlots(): number[] {
    return [...this.slots.keys()].sort((a, b) => a - b);
  }

  /** getRecentPrioritizationFees: one entry per slot held, oldest first. */
  recent(accounts: readonly string[]): { slot: number; prioritizationFee: number }[] {
    return this.recentSlots().map((slot) => {
      const fees = this.slots.get(slot)!;
      let fee = fees.lowest;
      for (const account of accounts) {
        const accountFee = fees.byAccount.get(account);
        if (accountFee !== undefined && accountFee > fee) fee = accountFee;
      }
      return { slot, prioritizationFee: Number(fee) };
    });
  }

  private prune(): void {
    const slots = this.recentSlots();
    for (const slot of slots.slice(0, Math.max(0, slots.length - RECENT_SLOTS))) this.slots.delete(slot);
  }
}
