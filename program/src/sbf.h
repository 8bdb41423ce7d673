/*
 * Minimal Solana SBPFv0 ABI for freestanding C: integer types, the serialized input
 * layout, the CPI structures and the syscalls this program uses. Written for this
 * project; layouts follow the runtime's documented C ABI (the same one solana_sdk.h uses).
 */
#ifndef TAG_REGISTRY_SBF_H
#define TAG_REGISTRY_SBF_H

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;

#define PUBKEY_BYTES 32

/* Bytes the runtime reserves after every account's data so a program may grow it. */
#define MAX_PERMITTED_DATA_INCREASE (10 * 1024)
/* First byte of a serialized account: this value, or the index of the account it repeats. */
#define NON_DUP_MARKER 0xff

/*
 * Serialized (aligned, loader v2/v3) account, offsets from its first byte:
 *   0 dup marker | 1 is_signer | 2 is_writable | 3 executable | 4..8 padding
 *   8 key | 40 owner | 72 lamports (u64) | 80 data_len (u64) | 88 data
 *   then MAX_PERMITTED_DATA_INCREASE bytes, padding to 8, rent_epoch (u64).
 * A duplicate is 8 bytes: the index of the original, then 7 bytes of padding.
 */
#define ACC_IS_SIGNER 1
#define ACC_IS_WRITABLE 2
#define ACC_EXECUTABLE 3
#define ACC_KEY 8
#define ACC_OWNER 40
#define ACC_LAMPORTS 72
#define ACC_DATA_LEN 80
#define ACC_DATA 88

typedef struct {
  const u8 *addr;
  u64 len;
} SolSignerSeed;

typedef struct {
  const SolSignerSeed *addr;
  u64 len;
} SolSignerSeeds;

typedef struct {
  const u8 *pubkey;
  u8 is_writable;
  u8 is_signer;
} SolAccountMeta;

typedef struct {
  const u8 *key;
  u64 *lamports;
  u64 data_len;
  u8 *data;
  const u8 *owner;
  u64 rent_epoch;
  u8 is_signer;
  u8 is_writable;
  u8 executable;
} SolAccountInfo;

typedef struct {
  const u8 *program_id;
  const SolAccountMeta *accounts;
  u64 account_len;
  const u8 *data;
  u64 data_len;
} SolInstruction;

/* The Rent sysvar as the syscall writes it; the threshold is an IEEE-754 double, kept as bits. */
typedef struct {
  u64 lamports_per_byte_year;
  u64 exemption_threshold_bits;
  u64 burn_percent;
} SolRent;

typedef struct {
  u64 slot;
  i64 epoch_start_timestamp;
  u64 epoch;
  u64 leader_schedule_epoch;
  i64 unix_timestamp;
} SolClock;

/* Syscalls: undefined symbols the loader binds by the hash of their name. */
extern void sol_log_(const char *message, u64 len);
extern u64 sol_invoke_signed_c(const SolInstruction *instruction,
                               const SolAccountInfo *account_infos, u64 account_infos_len,
                               const SolSignerSeeds *signers_seeds, u64 signers_seeds_len);
extern u64 sol_get_rent_sysvar(SolRent *rent);
/* SHA-256 over the concatenation of the slices (same layout as a signer seed). */
extern u64 sol_sha256(const SolSignerSeed *slices, u64 slices_len, u8 *result);
/* 0 when the 32 bytes are a point of the curve (`curve_id` 0: edwards25519), 1 when not. */
extern u64 sol_curve_validate_point(u64 curve_id, const u8 *point, u8 *result);
extern u64 sol_get_clock_sysvar(SolClock *clock);
/* Flat cost for short copies (cheaper than a byte loop past a few bytes); ranges must not overlap. */
extern void sol_memcpy_(void *dst, const void *src, u64 len);

static inline u64 load_u64(const u8 *p) {
  return (u64)p[0] | (u64)p[1] << 8 | (u64)p[2] << 16 | (u64)p[3] << 24 | (u64)p[4] << 32 |
         (u64)p[5] << 40 | (u64)p[6] << 48 | (u64)p[7] << 56;
}

static inline u32 load_u32(const u8 *p) {
  return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void store_u64(u8 *p, u64 v) {
  for (int i = 0; i < 8; i++) p[i] = (u8)(v >> (8 * i));
}

/* Pubkey helpers for 8-aligned keys (every key inside a serialized account is). */
static inline int key_equal_aligned(const u8 *a, const u8 *b) {
  const u64 *x = (const u64 *)a, *y = (const u64 *)b;
  return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3])) == 0;
}

static inline int key_is_zero_aligned(const u8 *a) {
  const u64 *x = (const u64 *)a;
  return (x[0] | x[1] | x[2] | x[3]) == 0;
}

static inline void key_zero_aligned(u8 *dst) {
  u64 *d = (u64 *)dst;
  d[0] = 0;
  d[1] = 0;
  d[2] = 0;
  d[3] = 0;
}

static inline void key_copy_aligned(u8 *dst, const u8 *src) {
  u64 *d = (u64 *)dst;
  const u64 *s = (const u64 *)src;
  d[0] = s[0];
  d[1] = s[1];
  d[2] = s[2];
  d[3] = s[3];
}

#endif
