/*
 * The tag's lifecycle after register_tag (DESIGN.md "Lifecycle"): set_wallet,
 * offer_transfer, cancel_transfer, accept_transfer, release_tag. Each takes the record as
 * account 0 and trusts it only after check_record; each checks, in this order: data,
 * account count, the record, whether it rests (only release_tag takes a resting record),
 * the signer, the signer's authority, the arguments and the other accounts.
 */
#ifndef TAG_REGISTRY_LIFECYCLE_H
#define TAG_REGISTRY_LIFECYCLE_H

#include "input.h"
#include "pda.h"
#include "rent.h"
#include "resting.h"
#include "wallet.h"

/*
 * Account 0 is a real record: owned by this program, a TagRecord by size and
 * discriminator, writable, and at the address of the tag it stores with its stored bump.
 *
 * What the last check guards: only this program writes data into accounts it owns, an
 * account it owns starts all zero, and only register_tag writes the discriminator, into
 * the canonical PDA of the tag it writes beside it. So a program-owned account with the
 * discriminator is already at its tag's canonical address, and the check fails only if that
 * reasoning ever stops holding (a future instruction that writes records elsewhere). It
 * stays as that guard, at a tenth of its old price: the hash alone (sol_sha256, about 150
 * CU) instead of sol_create_program_address (1,500 CU), which adds the curve check. The
 * curve check adds nothing here: an address equal to the hash is either that PDA, or a
 * point of the curve whose key nobody holds, so no account can exist there that this
 * program did not create through register_tag.
 */
static u64 check_record(const Input *in, u64 accounts_needed) {
  if (in->num_accounts < accounts_needed) return ERR_NOT_ENOUGH_ACCOUNTS;
  const u8 *record = in->accounts[A_TAG_RECORD];
  const u8 *data = record + ACC_DATA;
  if (!key_equal_aligned(record + ACC_OWNER, in->program_id)) return ERR_TAG_RECORD_NOT_PROGRAM_OWNED;
  if (*(const u64 *)(record + ACC_DATA_LEN) != TAG_RECORD_SIZE || *(const u64 *)data != TAG_RECORD_DISCRIMINATOR)
    return ERR_NOT_A_TAG_RECORD;
  u64 tag_len = load_u32(data + REC_TAG_LEN);
  if (tag_len > TAG_MAX_BYTES) return ERR_NOT_A_TAG_RECORD;
  if (!record[ACC_IS_WRITABLE]) return ERR_TAG_RECORD_NOT_WRITABLE;

  u64 address[PUBKEY_BYTES / 8];
  tag_address_hash(data + REC_TAG, tag_len, data + REC_BUMP, in->program_id, address);
  if (!key_equal_aligned((const u8 *)address, record + ACC_KEY)) return ERR_INVALID_TAG_RECORD_ADDRESS;
  return 0;
}

/* Account 1 signs and is the record's owner (after check_record). */
static u64 check_owner(const Input *in) {
  const u8 *owner = in->accounts[A_OWNER];
  if (!owner[ACC_IS_SIGNER]) return ERR_OWNER_NOT_SIGNER;
  if (!key_equal_aligned(owner + ACC_KEY, in->accounts[A_TAG_RECORD] + ACC_DATA + REC_OWNER))
    return ERR_NOT_TAG_OWNER;
  return 0;
}

static u8 *record_data(const Input *in) {
  return (u8 *)(in->accounts[A_TAG_RECORD] + ACC_DATA);
}

static void log_record(u64 ix, const u8 *data) {
  log_done(ix, data + REC_TAG, load_u32(data + REC_TAG_LEN));
}

/*
 * The handlers run once the entrypoint has checked what every lifecycle call shares (see
 * LIFECYCLE_CALLS); they check their own arguments and accounts, change the record and
 * return 0, or return the error code the entrypoint logs. Nothing changes before their
 * last check.
 */

/*
 * set_wallet(wallet): the payout wallet, passed as account 2 and signing (wallet.h); never
 * the zero address. The two-account form of the build before (no wallet account) is
 * refused with WalletAccountMissing, after the owner's checks, so its caller learns the one
 * thing to change.
 */
static u64 set_wallet(const Input *in, u8 *data) {
  const u8 *wallet = in->data + IX_DISCRIMINATOR_BYTES;
  if (in->num_accounts <= A_WALLET) return ERR_WALLET_ACCOUNT_MISSING;
  if (key_is_zero_aligned(wallet)) return ERR_WALLET_IS_ZERO;
  u64 err = check_wallet(in->accounts[A_WALLET], wallet);
  if (err) return err;
  key_copy_aligned(data + REC_WALLET, wallet);
  log_record(IX_SET_WALLET, data);
  return 0;
}

/* offer_transfer(new_owner): a standing offer, replacing any earlier one. */
static u64 offer_transfer(const Input *in, u8 *data) {
  const u8 *new_owner = in->data + IX_DISCRIMINATOR_BYTES;
  if (key_is_zero_aligned(new_owner)) return ERR_NEW_OWNER_IS_ZERO;
  if (key_equal_aligned(new_owner, data + REC_OWNER)) return ERR_NEW_OWNER_IS_OWNER;
  key_copy_aligned(data + REC_PENDING_OWNER, new_owner);
  log_record(IX_OFFER_TRANSFER, data);
  return 0;
}

/* cancel_transfer: withdraws the standing offer; with none, says so rather than succeed silently. */
static u64 cancel_transfer(const Input *in, u8 *data) {
  (void)in;
  if (key_is_zero_aligned(data + REC_PENDING_OWNER)) return ERR_NO_OFFER_TO_CANCEL;
  key_zero_aligned(data + REC_PENDING_OWNER);
  log_record(IX_CANCEL_TRANSFER, data);
  return 0;
}

/*
 * accept_transfer: the pending owner signs and takes the tag. The payout wallet becomes the
 * new owner too, so no payment keeps flowing to the previous owner's wallet.
 */
static u64 accept_transfer(const Input *in, u8 *data) {
  const u8 *new_owner = in->accounts[A_NEW_OWNER];
  if (!new_owner[ACC_IS_SIGNER]) return ERR_NEW_OWNER_NOT_SIGNER;
  if (key_is_zero_aligned(data + REC_PENDING_OWNER)) return ERR_NO_OFFER_TO_ACCEPT;
  if (!key_equal_aligned(new_owner + ACC_KEY, data + REC_PENDING_OWNER)) return ERR_NOT_PENDING_OWNER;
  key_copy_aligned(data + REC_OWNER, new_owner + ACC_KEY);
  key_copy_aligned(data + REC_WALLET, new_owner + ACC_KEY);
  key_zero_aligned(data + REC_PENDING_OWNER);
  log_record(IX_ACCEPT_TRANSFER, data);
  return 0;
}

/*
 * Closes the record: every lamport goes to the receiver, the data is zeroed and shrunk to
 * nothing, and the account goes back to the System Program. The runtime applies the
 * serialized account's lamports and data before its owner (the owner last, so that the
 * program still owns what it debits and shrinks), and lets a program give away an account
 * it owns only when the data is empty or all zero: both hold here. At zero lamports the
 * account is gone once the transaction ends.
 */
static void close_record(u8 *record, u8 *receiver, u8 *data) {
  *(u64 *)(receiver + ACC_LAMPORTS) += *(const u64 *)(record + ACC_LAMPORTS);
  *(u64 *)(record + ACC_LAMPORTS) = 0;
  u64 *words = (u64 *)data; /* 8-aligned */
  for (u64 i = 0; i < TAG_RECORD_SIZE / 8; i++) words[i] = 0;
  for (u64 i = TAG_RECORD_SIZE & ~7ull; i < TAG_RECORD_SIZE; i++) data[i] = 0;
  *(u64 *)(record + ACC_DATA_LEN) = 0;
  key_zero_aligned(record + ACC_OWNER);
}

/*
 * release_tag on a live record puts the tag to rest (resting.h): the receiver gets every
 * lamport above the record's rent-exempt minimum, the record keeps that minimum (or what it
 * holds, if less) for the 30 days. On a resting record whose rest is over, the previous
 * owner closes it and the receiver gets every lamport, so the deposit is never stranded;
 * before that, TagResting. program/README.md "Where each lamport goes".
 */
static u64 release_tag(const Input *in, u8 *data) {
  u8 *record = (u8 *)in->accounts[A_TAG_RECORD];
  u8 *receiver = (u8 *)in->accounts[A_RECEIVER];
  if (!receiver[ACC_IS_WRITABLE]) return ERR_RECEIVER_NOT_WRITABLE;
  /* Paying the record to itself would leave it funded, or wipe its lamports: refuse it. */
  if (key_equal_aligned(receiver + ACC_KEY, record + ACC_KEY)) return ERR_RECEIVER_IS_TAG_RECORD;

  SolClock clock;
  u64 err = sol_get_clock_sysvar(&clock);
  if (err) return err;
  if (record_is_resting(data)) {
    if (!rest_is_over(data, clock.unix_timestamp)) return ERR_TAG_RESTING;
    log_record(IX_RELEASE_TAG, data);
    close_record(record, receiver, data);
    return 0;
  }

  SolRent rent;
  if ((err = sol_get_rent_sysvar(&rent))) return err;
  u64 deposit = rent_exempt_minimum(&rent, TAG_RECORD_SIZE);
  u64 held = *(const u64 *)(record + ACC_LAMPORTS);
  u64 excess = held > deposit ? held - deposit : 0;
  log_record(IX_RELEASE_TAG, data);
  *(u64 *)(receiver + ACC_LAMPORTS) += excess;
  *(u64 *)(record + ACC_LAMPORTS) = held - excess;
  put_to_rest(data, clock.unix_timestamp);
  return 0;
}

/*
 * What the entrypoint checks before a lifecycle handler runs, in this order: the exact
 * data length, the account count and the record (check_record), that the record is live
 * unless the call takes a resting one (TagReleased), then, where the owner signs, account 1
 * (check_owner). One table, so every call checks alike and the order of the errors is the
 * same for all. `accounts` is the least the call takes; set_wallet counts its wallet
 * account itself, to name the old two-account form.
 */
typedef struct {
  u64 discriminator;
  u64 (*run)(const Input *in, u8 *data);
  u8 data_len;
  u8 accounts;
  u8 owner_signs;
  u8 takes_resting;
} LifecycleCall;

static const LifecycleCall LIFECYCLE_CALLS[] = {
    {SET_WALLET_DISCRIMINATOR, set_wallet, IX_PUBKEY_ARG_BYTES, 2, 1, 0},
    {OFFER_TRANSFER_DISCRIMINATOR, offer_transfer, IX_PUBKEY_ARG_BYTES, 2, 1, 0},
    {CANCEL_TRANSFER_DISCRIMINATOR, cancel_transfer, IX_DISCRIMINATOR_BYTES, 2, 1, 0},
    {ACCEPT_TRANSFER_DISCRIMINATOR, accept_transfer, IX_DISCRIMINATOR_BYTES, 2, 0, 0},
    {RELEASE_TAG_DISCRIMINATOR, release_tag, IX_DISCRIMINATOR_BYTES, 3, 1, 1},
};

/* Runs the lifecycle instruction named by `discriminator`; an unknown one fails as such. */
static u64 run_lifecycle(const Input *in, u64 discriminator) {
  for (u64 i = 0; i < sizeof(LIFECYCLE_CALLS) / sizeof(LIFECYCLE_CALLS[0]); i++) {
    const LifecycleCall *call = &LIFECYCLE_CALLS[i];
    if (call->discriminator != discriminator) continue;
    u64 err = in->data_len != call->data_len ? ERR_INVALID_INSTRUCTION_DATA : check_record(in, call->accounts);
    if (!err && !call->takes_resting && record_is_resting(record_data(in))) err = ERR_TAG_RELEASED;
    if (!err && call->owner_signs) err = check_owner(in);
    if (!err) err = call->run(in, record_data(in));
    return err ? fail(err) : 0;
  }
  return fail(ERR_INVALID_INSTRUCTION_DATA);
}

#endif
