/*
 * The tag registry's ABI as the program sees it: error codes, discriminators, the TagRecord
 * layout (DESIGN.md "The on-chain program"). Keep in step with program/idl/tag_registry.json
 * and packages/tag-registry; program/tests/abi.test.ts checks all three agree.
 */
#ifndef TAG_REGISTRY_ABI_H
#define TAG_REGISTRY_ABI_H

#include "sbf.h"

/* Custom error codes (Anchor convention: from 6000), append-only. */
enum {
  ERR_TAG_TOO_SHORT = 6000,
  ERR_TAG_TOO_LONG,
  ERR_TAG_INVALID_CHAR,
  ERR_TAG_INVALID_EDGE,
  ERR_INVALID_INSTRUCTION_DATA,
  ERR_NOT_ENOUGH_ACCOUNTS,
  ERR_OWNER_NOT_SIGNER,
  ERR_FEE_PAYER_NOT_SIGNER,
  ERR_FEE_PAYER_NOT_WRITABLE,
  ERR_TAG_RECORD_NOT_WRITABLE,
  ERR_INVALID_TAG_RECORD_ADDRESS,
  ERR_INVALID_SYSTEM_PROGRAM,
  ERR_ALREADY_REGISTERED,
  ERR_TAG_RECORD_NOT_PROGRAM_OWNED,
  ERR_NOT_A_TAG_RECORD,
  ERR_NOT_TAG_OWNER,
  ERR_NEW_OWNER_NOT_SIGNER,
  ERR_NOT_PENDING_OWNER,
  ERR_NO_OFFER_TO_ACCEPT,
  ERR_NO_OFFER_TO_CANCEL,
  ERR_NEW_OWNER_IS_ZERO,
  ERR_NEW_OWNER_IS_OWNER,
  ERR_WALLET_IS_ZERO,
  ERR_RECEIVER_NOT_WRITABLE,
  ERR_RECEIVER_IS_TAG_RECORD,
  ERR_WALLET_NOT_SIGNER,
  ERR_WALLET_ACCOUNT_MISMATCH,
  ERR_WALLET_NOT_SYSTEM_OWNED,
  ERR_WALLET_ACCOUNT_MISSING,
  ERR_TAG_RESTING,
  ERR_TAG_RELEASED,
  ERR_END
};

/*
 * Each error's name and message, as the IDL and packages/tag-registry/src/generated/errors/tagRegistry.ts list them: the
 * failure's log line carries both (Anchor's format, see fail() in input.h).
 */
typedef struct {
  const char *name;
  u64 name_len;
  const char *msg;
  u64 msg_len;
} ErrorText;
#define ERROR_TEXT(name, msg) {name, sizeof(name) - 1, msg, sizeof(msg) - 1}
static const ErrorText ERROR_TEXTS[ERR_END - ERR_TAG_TOO_SHORT] = {
    ERROR_TEXT("TagTooShort", "Tag is shorter than 3 bytes"),
    ERROR_TEXT("TagTooLong", "Tag is longer than 32 bytes"),
    ERROR_TEXT("TagInvalidChar", "Tag may only contain a-z, 0-9 and _"),
    ERROR_TEXT("TagInvalidEdge", "Tag may not start or end with _"),
    ERROR_TEXT("InvalidInstructionData", "Instruction data is not a call of this program (discriminator or length)"),
    ERROR_TEXT("NotEnoughAccounts", "The instruction has fewer accounts than its ABI lists"),
    ERROR_TEXT("OwnerNotSigner", "Owner must sign"),
    ERROR_TEXT("FeePayerNotSigner", "Fee payer must sign"),
    ERROR_TEXT("FeePayerNotWritable", "Fee payer must be writable"),
    ERROR_TEXT("TagRecordNotWritable", "Tag record must be writable"),
    ERROR_TEXT("InvalidTagRecordAddress", "Tag record is not the PDA [\"tag\", tag]"),
    ERROR_TEXT("InvalidSystemProgram", "Account 3 must be the System Program"),
    ERROR_TEXT("AlreadyRegistered", "Tag is already registered"),
    ERROR_TEXT("TagRecordNotProgramOwned", "Tag record is not owned by the tag registry program"),
    ERROR_TEXT("NotATagRecord", "Tag record data is not a TagRecord (size, discriminator or tag length)"),
    ERROR_TEXT("NotTagOwner", "Signer is not the tag's owner"),
    ERROR_TEXT("NewOwnerNotSigner", "The new owner must sign to accept"),
    ERROR_TEXT("NotPendingOwner", "Signer is not the pending owner of the tag"),
    ERROR_TEXT("NoOfferToAccept", "No transfer offer stands to accept"),
    ERROR_TEXT("NoOfferToCancel", "No transfer offer stands to cancel"),
    ERROR_TEXT("NewOwnerIsZero", "A transfer may not be offered to the zero address"),
    ERROR_TEXT("NewOwnerIsOwner", "The owner may not offer the tag to itself"),
    ERROR_TEXT("WalletIsZero", "The payout wallet may not be the zero address"),
    ERROR_TEXT("ReceiverNotWritable", "Receiver must be writable"),
    ERROR_TEXT("ReceiverIsTagRecord", "Receiver may not be the tag record itself"),
    ERROR_TEXT("WalletNotSigner", "The payout wallet must sign"),
    ERROR_TEXT("WalletAccountMismatch", "The wallet account is not the wallet argument"),
    ERROR_TEXT("WalletNotSystemOwned", "The payout wallet must be an account of the System Program"),
    ERROR_TEXT("WalletAccountMissing", "The payout wallet account is missing: it comes last, and signs"),
    ERROR_TEXT("TagResting", "The released tag rests for 30 days: only its previous owner may take it"),
    ERROR_TEXT("TagReleased", "The tag was released: register it again before any other call"),
};
#define ERROR_NAME_MAX 24
#define ERROR_MESSAGE_MAX 72

/* Instructions, in the IDL's order: the success log line names them. */
enum {
  IX_REGISTER_TAG,
  IX_SET_WALLET,
  IX_OFFER_TRANSFER,
  IX_CANCEL_TRANSFER,
  IX_ACCEPT_TRANSFER,
  IX_RELEASE_TAG,
  IX_END
};

#define IX_NAME_WIDTH 16
static const char IX_NAMES[IX_END][IX_NAME_WIDTH] = {
    "register_tag",    "set_wallet",  "offer_transfer", "cancel_transfer",
    "accept_transfer", "release_tag",
};
static const u8 IX_NAME_LENGTHS[IX_END] = {12, 10, 14, 15, 15, 11};

/* sha256("global:<name>")[0..8] and sha256("account:TagRecord")[0..8], as LE u64. */
#define REGISTER_TAG_DISCRIMINATOR 0x2aa0a6f4630f1d4aull
#define SET_WALLET_DISCRIMINATOR 0x722761c24b829ea0ull
#define OFFER_TRANSFER_DISCRIMINATOR 0x5d0fb15fe76e6d27ull
#define CANCEL_TRANSFER_DISCRIMINATOR 0xaf6f298e82462032ull
#define ACCEPT_TRANSFER_DISCRIMINATOR 0x6e3178d03eabf95eull
#define RELEASE_TAG_DISCRIMINATOR 0x95ac6cf31ed9d57bull
#define TAG_RECORD_DISCRIMINATOR 0x3f9f64b7a3b3b450ull

#define TAG_MIN_BYTES 3
#define TAG_MAX_BYTES 32 /* one PDA seed */

/*
 * TagRecord: discriminator | owner | wallet | pending_owner (zero = none) | bump |
 * registered_at | tag (u32 len + 32, zero padded). The three keys sit 8-aligned.
 *
 * A released tag's record stays, resting (program/README.md "The resting record"): owner =
 * the previous owner, wallet = zero, pending_owner = owner, registered_at = the release
 * time. pending_owner = owner is the mark, as no live record can hold it (offer_transfer
 * refuses the owner, accept_transfer and register_tag clear it), in this build or the one
 * before; a zero wallet alone is not, as the build before accepted one at registration.
 */
#define REC_OWNER 8
#define REC_WALLET 40
#define REC_PENDING_OWNER 72
#define REC_BUMP 104
#define REC_REGISTERED_AT 105
#define REC_TAG_LEN 113
#define REC_TAG 117
#define TAG_RECORD_SIZE (REC_TAG + TAG_MAX_BYTES) /* 149 */

/* How long a released tag rests, in the Clock sysvar's seconds: 30 days. */
#define REST_SECONDS (30ll * 86400)

/* Instruction data sizes: discriminator, then one pubkey argument or none. */
#define IX_DISCRIMINATOR_BYTES 8
#define IX_PUBKEY_ARG_BYTES (IX_DISCRIMINATOR_BYTES + PUBKEY_BYTES)

/* Account positions shared by every instruction; the third differs. */
enum { A_TAG_RECORD, A_OWNER, A_THIRD, A_SYSTEM_PROGRAM, A_REGISTER_WALLET, A_MAX };
#define A_FEE_PAYER A_THIRD /* register_tag */
#define A_RECEIVER A_THIRD  /* release_tag */
#define A_WALLET A_THIRD    /* set_wallet */
#define A_NEW_OWNER A_OWNER /* accept_transfer: the pending owner signs where the owner would */

#endif
