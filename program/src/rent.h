/*
 * Rent exemption in integer arithmetic. The runtime computes
 *   ((ACCOUNT_STORAGE_OVERHEAD + data_len) * lamports_per_byte_year) as f64 * threshold, as u64
 * with an f64 threshold; SBPF has no floating point, so this file reproduces that
 * expression bit for bit: both roundings to 53 significant bits (nearest, ties to even)
 * and the saturating, truncating cast back to u64.
 */
#ifndef TAG_REGISTRY_RENT_H
#define TAG_REGISTRY_RENT_H

#include "sbf.h"

#define ACCOUNT_STORAGE_OVERHEAD 128
#define U64_MAX 0xffffffffffffffffull
#define F64_MANTISSA_BITS 53

static inline u64 bit_length64(u64 x) {
  u64 n = 0;
  if (x >> 32) { n += 32; x >>= 32; }
  if (x >> 16) { n += 16; x >>= 16; }
  if (x >> 8) { n += 8; x >>= 8; }
  if (x >> 4) { n += 4; x >>= 4; }
  if (x >> 2) { n += 2; x >>= 2; }
  if (x >> 1) { n += 1; x >>= 1; }
  return n + x;
}

/* (hi:lo) = a * b, exact. */
static inline void mul_64x64(u64 a, u64 b, u64 *hi, u64 *lo) {
  u64 a0 = a & 0xffffffffull, a1 = a >> 32, b0 = b & 0xffffffffull, b1 = b >> 32;
  u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  u64 mid = (p00 >> 32) + (p01 & 0xffffffffull) + (p10 & 0xffffffffull);
  *lo = (p00 & 0xffffffffull) | (mid << 32);
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/*
 * Rounds the 128-bit value hi:lo to a double's 53 significant bits, nearest with ties to
 * even. Returns the mantissa m and sets *exp2 so that the rounded value is m * 2^*exp2.
 */
static inline u64 round_to_f64(u64 hi, u64 lo, i64 *exp2) {
  u64 n = hi ? 64 + bit_length64(hi) : bit_length64(lo);
  *exp2 = 0;
  if (n <= F64_MANTISSA_BITS) return lo;
  u64 k = n - F64_MANTISSA_BITS; /* 1..75 bits to drop */
  u64 m, rem_hi, rem_lo, half_hi, half_lo;
  if (k < 64) {
    m = (lo >> k) | (hi << (64 - k));
    rem_hi = 0;
    rem_lo = lo & ((1ull << k) - 1);
  } else {
    m = hi >> (k - 64);
    rem_hi = k == 64 ? 0 : hi & ((1ull << (k - 64)) - 1);
    rem_lo = lo;
  }
  if (k - 1 < 64) {
    half_hi = 0;
    half_lo = 1ull << (k - 1);
  } else {
    half_hi = 1ull << (k - 65);
    half_lo = 0;
  }
  int above = rem_hi > half_hi || (rem_hi == half_hi && rem_lo > half_lo);
  int tie = rem_hi == half_hi && rem_lo == half_lo;
  if (above || (tie && (m & 1))) m++;
  if (m >> F64_MANTISSA_BITS) {
    m >>= 1;
    k++;
  }
  *exp2 = (i64)k;
  return m;
}

/* Minimum balance for an account of data_len bytes to be rent exempt under `rent`. */
static inline u64 rent_exempt_minimum(const SolRent *rent, u64 data_len) {
  u64 base = (ACCOUNT_STORAGE_OVERHEAD + data_len) * rent->lamports_per_byte_year;
  u64 bits = rent->exemption_threshold_bits;
  u64 biased = (bits >> 52) & 0x7ff, fraction = bits & ((1ull << 52) - 1);
  if (biased == 0x7ff) return fraction || (bits >> 63) ? 0 : U64_MAX; /* NaN → 0, ±inf saturate */
  if (bits >> 63) return 0; /* negative threshold: the cast saturates at 0 */
  u64 threshold_m = biased ? fraction | (1ull << 52) : fraction;
  i64 threshold_e = biased ? (i64)biased - 1075 : -1074;

  i64 base_e, product_e;
  u64 base_m = round_to_f64(0, base, &base_e);
  u64 hi, lo;
  mul_64x64(base_m, threshold_m, &hi, &lo);
  u64 m = round_to_f64(hi, lo, &product_e);
  if (m == 0) return 0;
  i64 shift = base_e + product_e + threshold_e;
  if (shift >= 0) {
    if (shift >= 64 || (shift > 0 && (m >> (64 - shift)) != 0)) return U64_MAX;
    return m << shift;
  }
  if (-shift >= 64) return 0;
  return m >> -shift;
}

#endif
