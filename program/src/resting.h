/*
 * A released tag rests for REST_SECONDS (abi.h): its record stays, marked resting, so that
 * for 30 days only the previous owner can register the tag again, and every link, QR code
 * and address book entry naming it never pays a stranger (program/README.md "The resting
 * record"). The record keeps exactly its rent deposit meanwhile.
 */
#ifndef TAG_REGISTRY_RESTING_H
#define TAG_REGISTRY_RESTING_H

#include "abi.h"

/* Whether record data (a TagRecord, 8-aligned) is resting: pending_owner = owner. */
static int record_is_resting(const u8 *data) {
  return key_equal_aligned(data + REC_PENDING_OWNER, data + REC_OWNER);
}

/* Whether the rest of a resting record is over at `now` (the Clock sysvar's unix_timestamp). */
static int rest_is_over(const u8 *data, i64 now) {
  return now >= (i64)load_u64(data + REC_REGISTERED_AT) + REST_SECONDS;
}

/*
 * Puts a live record to rest at `now`: the payout wallet goes (zero, so that a reader who
 * skips the mark still pays nobody), the mark is set, the owner stays as the previous owner.
 */
static void put_to_rest(u8 *data, i64 now) {
  key_zero_aligned(data + REC_WALLET);
  key_copy_aligned(data + REC_PENDING_OWNER, data + REC_OWNER);
  store_u64(data + REC_REGISTERED_AT, (u64)now);
}

#endif
