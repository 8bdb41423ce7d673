/*
 * The tag record's address, ["tag", tag, bump] under this program, computed as the runtime
 * computes a program address: sha256(seeds ‖ program id ‖ "ProgramDerivedAddress"), valid
 * when the hash is not a point of edwards25519. The runtime's own syscalls charge 1,500 CU
 * per bump tried (sol_create_program_address, and sol_try_find_program_address per attempt);
 * sol_sha256 over these slices costs about 150 and sol_curve_validate_point 159, for the
 * same answer (both decompress the point with curve25519-dalek), so a tag whose canonical
 * bump is far from 255 no longer costs thousands of CU more than a lucky one.
 */
#ifndef TAG_REGISTRY_PDA_H
#define TAG_REGISTRY_PDA_H

#include "abi.h"

#define CURVE25519_EDWARDS 0
static const char PDA_MARKER[] = "ProgramDerivedAddress";

/* address := sha256("tag" ‖ tag ‖ bump ‖ program_id ‖ marker): the address, if it is off the curve. */
static void tag_address_hash(const u8 *tag, u64 tag_len, const u8 *bump, const u8 *program_id, u64 address[4]) {
  SolSignerSeed slices[5];
  slices[0].addr = (const u8 *)"tag";
  slices[0].len = 3;
  slices[1].addr = tag;
  slices[1].len = tag_len;
  slices[2].addr = bump;
  slices[2].len = 1;
  slices[3].addr = program_id;
  slices[3].len = PUBKEY_BYTES;
  slices[4].addr = (const u8 *)PDA_MARKER;
  slices[4].len = sizeof(PDA_MARKER) - 1;
  sol_sha256(slices, 5, (u8 *)address);
}

/*
 * findProgramAddress for ["tag", tag]: the first bump from 255 down whose hash is off the
 * curve (the canonical one, so one tag has one address). Returns 1 when no bump works, which
 * happens with probability 2^-256.
 */
static u64 find_tag_address(const u8 *tag, u64 tag_len, const u8 *program_id, u64 address[4], u8 *bump) {
  u8 unused;
  for (u64 b = 255;; b--) {
    *bump = (u8)b;
    tag_address_hash(tag, tag_len, bump, program_id, address);
    if (sol_curve_validate_point(CURVE25519_EDWARDS, (const u8 *)address, &unused) != 0) return 0;
    if (b == 0) return 1;
  }
}

#endif
