/*
 * The payout wallet's consent (DESIGN.md "Payout rules"): the wallet named in the
 * arguments is also passed as an account, signs, and is owned by the System Program, so
 * that a typo, a key nobody holds, a token account, a mint, a program or a program's data
 * account can never become the address every payer sends money to. An address with no
 * account yet reads as System-owned with 0 lamports, and is accepted: its key signed.
 */
#ifndef TAG_REGISTRY_WALLET_H
#define TAG_REGISTRY_WALLET_H

#include "input.h"

/* `account` (a serialized account header) is the payout wallet `wallet` (8-aligned) and consents. */
static u64 check_wallet(const u8 *account, const u8 *wallet) {
  if (!key_equal_aligned(account + ACC_KEY, wallet)) return ERR_WALLET_ACCOUNT_MISMATCH;
  if (!account[ACC_IS_SIGNER]) return ERR_WALLET_NOT_SIGNER;
  if (!key_is_zero_aligned(account + ACC_OWNER)) return ERR_WALLET_NOT_SYSTEM_OWNED;
  return 0;
}

#endif
