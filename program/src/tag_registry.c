/*
 * Tag registry: the PDA ["tag", tag] holds a tag's owner, payout wallet and any standing
 * transfer offer (DESIGN.md "The on-chain program"). register_tag creates it; set_wallet,
 * offer_transfer, cancel_transfer, accept_transfer and release_tag manage it for life.
 * Anchor-compatible ABI so explorers and IDL tools can read it; the IDL is
 * program/idl/tag_registry.json. One translation unit: the headers beside this file hold
 * the ABI (abi.h), the input and logs (input.h) and the instructions.
 */
#include "lifecycle.h"
#include "register_tag.h"

u64 entrypoint(const u8 *input) {
  Input in;
  parse_input(input, &in);
  if (in.data_len < IX_DISCRIMINATOR_BYTES) return fail(ERR_INVALID_INSTRUCTION_DATA);
  u64 discriminator = *(const u64 *)in.data;
  if (discriminator == REGISTER_TAG_DISCRIMINATOR) return register_tag(&in);
  return run_lifecycle(&in, discriminator);
}
