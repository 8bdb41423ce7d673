/*
 * Tag registry: one instruction, register_tag, that creates the PDA ["tag", tag] holding
 * the tag's owner and payout wallet (DESIGN.md "The on-chain program"). Anchor-compatible
 * ABI so explorers and IDL tools can read it; the IDL is program/idl/tag_registry.json.
 */
#include "sbf.h"
#include "rent.h"

/* Custom error codes (Anchor convention: from 6000). Keep in step with the IDL and lib/registry/errors.ts. */
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
  ERR_END
};

#define ERROR_NAME_WIDTH 24
/* Fixed-width rows, not a pointer table: read-only data must not hold addresses. */
static const char ERROR_NAMES[ERR_END - ERR_TAG_TOO_SHORT][ERROR_NAME_WIDTH] = {
    "TagTooShort",          "TagTooLong",          "TagInvalidChar",
    "TagInvalidEdge",       "InvalidInstructionData", "NotEnoughAccounts",
    "OwnerNotSigner",       "FeePayerNotSigner",   "FeePayerNotWritable",
    "TagRecordNotWritable", "InvalidTagRecordAddress", "InvalidSystemProgram",
    "AlreadyRegistered",
};

#define TAG_MIN_BYTES 3
#define TAG_MAX_BYTES 32 /* one PDA seed */

/* sha256("global:register_tag")[0..8] and sha256("account:TagRecord")[0..8], as LE u64. */
#define REGISTER_TAG_DISCRIMINATOR 0x2aa0a6f4630f1d4aull
#define TAG_RECORD_DISCRIMINATOR 0x3f9f64b7a3b3b450ull

/* TagRecord layout: discriminator | owner | wallet | bump | registered_at | tag (u32 len + 32). */
#define REC_OWNER 8
#define REC_WALLET 40
#define REC_BUMP 72
#define REC_REGISTERED_AT 73
#define REC_TAG_LEN 81
#define REC_TAG 85
#define TAG_RECORD_SIZE (REC_TAG + TAG_MAX_BYTES) /* 117 */

/* Instruction data: discriminator | tag (u32 len + bytes) | wallet. */
#define IX_FIXED_BYTES (8 + 4 + PUBKEY_BYTES)

/* System Program instruction indices (u32 LE enum tags). */
#define SYS_CREATE_ACCOUNT 0
#define SYS_ASSIGN 1
#define SYS_TRANSFER 2
#define SYS_ALLOCATE 8

enum { A_TAG_RECORD, A_OWNER, A_FEE_PAYER, A_SYSTEM_PROGRAM, A_COUNT };

typedef struct {
  const u8 *accounts[A_COUNT]; /* serialized account headers, duplicates resolved */
  u64 num_accounts;
  const u8 *tag;
  u64 tag_len;
  const u8 *wallet;
  const u8 *program_id;
  u64 data_ok;
} Input;

static const char LOG_FAILED[] = "register_tag failed: ";
static const char LOG_OK[] = "register_tag: ";

__attribute__((noinline)) static u64 fail(u64 code) {
  char line[sizeof(LOG_FAILED) - 1 + ERROR_NAME_WIDTH];
  u64 n = sizeof(LOG_FAILED) - 1;
  copy_bytes((u8 *)line, (const u8 *)LOG_FAILED, n);
  const char *name = ERROR_NAMES[code - ERR_TAG_TOO_SHORT];
  for (u64 i = 0; i < ERROR_NAME_WIDTH && name[i]; i++) line[n++] = name[i];
  sol_log_(line, n);
  return code;
}

/*
 * Walks the SBPFv0 input: u64 account count, the accounts (each either a full record or
 * an 8-byte duplicate marker), u64 data length, data, program id.
 */
static void parse_input(const u8 *input, Input *in) {
  u64 n = *(const u64 *)input;
  const u8 *p = input + 8;
  in->num_accounts = n;
  for (u64 i = 0; i < n; i++) {
    const u8 *account = p;
    if (p[0] != NON_DUP_MARKER) {
      u64 original = p[0];
      account = original < A_COUNT ? in->accounts[original] : 0;
      p += 8;
    } else {
      u64 data_len = *(const u64 *)(p + ACC_DATA_LEN);
      p += ACC_DATA + data_len + MAX_PERMITTED_DATA_INCREASE;
      p = (const u8 *)(((u64)p + 7) & ~7ull);
      p += 8; /* rent_epoch */
    }
    if (i < A_COUNT) in->accounts[i] = account;
  }
  u64 data_len = *(const u64 *)p;
  const u8 *data = p + 8;
  in->program_id = data + data_len;

  in->data_ok = 0;
  if (data_len < IX_FIXED_BYTES || load_u64(data) != REGISTER_TAG_DISCRIMINATOR) return;
  u64 tag_len = load_u32(data + 8);
  if (data_len != IX_FIXED_BYTES + tag_len) return; /* truncated, or trailing bytes */
  in->tag = data + 12;
  in->tag_len = tag_len;
  in->wallet = data + 12 + tag_len;
  in->data_ok = 1;
}

/* The canonical rule of DESIGN.md "Tags", on raw bytes: ^[a-z0-9][a-z0-9_]{1,30}[a-z0-9]$. */
static u64 check_tag(const u8 *tag, u64 len) {
  if (len < TAG_MIN_BYTES) return ERR_TAG_TOO_SHORT;
  if (len > TAG_MAX_BYTES) return ERR_TAG_TOO_LONG;
  for (u64 i = 0; i < len; i++) {
    u8 c = tag[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return ERR_TAG_INVALID_CHAR;
  }
  if (tag[0] == '_' || tag[len - 1] == '_') return ERR_TAG_INVALID_EDGE;
  return 0;
}

static void account_info(SolAccountInfo *info, const u8 *account) {
  info->key = account + ACC_KEY;
  info->lamports = (u64 *)(account + ACC_LAMPORTS);
  info->data_len = *(const u64 *)(account + ACC_DATA_LEN);
  info->data = (u8 *)(account + ACC_DATA);
  info->owner = account + ACC_OWNER;
  info->rent_epoch = 0;
  info->is_signer = account[ACC_IS_SIGNER];
  info->is_writable = account[ACC_IS_WRITABLE];
  info->executable = account[ACC_EXECUTABLE];
}

/* Everything a System Program CPI needs: the two accounts and the PDA's signer seeds. */
typedef struct {
  SolAccountInfo infos[2]; /* fee payer, tag record */
  SolSignerSeed seeds[3];  /* "tag", tag, [bump] */
  SolSignerSeeds signer;
  const u8 *system_program;
} Cpi;

/* Invokes the System Program; with_payer puts the fee payer first, pda_signs marks the PDA signer. */
static u64 system_invoke(Cpi *cpi, const u8 *data, u64 data_len, u64 with_payer, u64 pda_signs) {
  SolAccountMeta metas[2];
  u64 n = 0;
  if (with_payer) {
    metas[n].pubkey = cpi->infos[0].key;
    metas[n].is_writable = 1;
    metas[n].is_signer = 1;
    n++;
  }
  metas[n].pubkey = cpi->infos[1].key;
  metas[n].is_writable = 1;
  metas[n].is_signer = (u8)pda_signs;
  n++;
  SolInstruction ix = {cpi->system_program, metas, n, data, data_len};
  return sol_invoke_signed_c(&ix, cpi->infos, 2, &cpi->signer, 1);
}

/*
 * Creates the record account, owned by program_id, holding `lamports`. Anyone may send
 * lamports to the PDA address beforehand, and CreateAccount refuses an address that has
 * any; then top up, allocate and assign instead, which reaches the same state.
 */
static u64 create_record(Cpi *cpi, const u8 *program_id, u64 lamports) {
  u8 data[4 + 8 + 8 + PUBKEY_BYTES];
  u64 existing = *cpi->infos[1].lamports;
  u64 err;
  if (existing == 0) {
    store_u64(data, SYS_CREATE_ACCOUNT); /* the u32 enum tag; bytes 4..8 are written next */
    store_u64(data + 4, lamports);
    store_u64(data + 12, TAG_RECORD_SIZE);
    sol_memcpy_(data + 20, program_id, PUBKEY_BYTES);
    return system_invoke(cpi, data, sizeof(data), 1, 1);
  }
  if (existing < lamports) {
    store_u64(data, SYS_TRANSFER);
    store_u64(data + 4, lamports - existing);
    if ((err = system_invoke(cpi, data, 12, 1, 0))) return err;
  }
  store_u64(data, SYS_ALLOCATE);
  store_u64(data + 4, TAG_RECORD_SIZE);
  if ((err = system_invoke(cpi, data, 12, 0, 1))) return err;
  store_u64(data, SYS_ASSIGN);
  sol_memcpy_(data + 4, program_id, PUBKEY_BYTES);
  return system_invoke(cpi, data, 4 + PUBKEY_BYTES, 0, 1);
}

u64 entrypoint(const u8 *input) {
  Input in;
  for (int i = 0; i < A_COUNT; i++) in.accounts[i] = 0;
  parse_input(input, &in);

  if (!in.data_ok) return fail(ERR_INVALID_INSTRUCTION_DATA);
  if (in.num_accounts < A_COUNT) return fail(ERR_NOT_ENOUGH_ACCOUNTS);
  u64 err = check_tag(in.tag, in.tag_len);
  if (err) return fail(err);

  const u8 *record = in.accounts[A_TAG_RECORD];
  const u8 *owner = in.accounts[A_OWNER];
  const u8 *payer = in.accounts[A_FEE_PAYER];
  const u8 *system = in.accounts[A_SYSTEM_PROGRAM];
  if (!owner[ACC_IS_SIGNER]) return fail(ERR_OWNER_NOT_SIGNER);
  if (!payer[ACC_IS_SIGNER]) return fail(ERR_FEE_PAYER_NOT_SIGNER);
  if (!payer[ACC_IS_WRITABLE]) return fail(ERR_FEE_PAYER_NOT_WRITABLE);
  if (!record[ACC_IS_WRITABLE]) return fail(ERR_TAG_RECORD_NOT_WRITABLE);
  if (!key_is_zero_aligned(system + ACC_KEY)) return fail(ERR_INVALID_SYSTEM_PROGRAM);

  Cpi cpi;
  u8 bump_seed[1];
  cpi.seeds[0].addr = (const u8 *)"tag";
  cpi.seeds[0].len = 3;
  cpi.seeds[1].addr = in.tag;
  cpi.seeds[1].len = in.tag_len;
  u64 expected[PUBKEY_BYTES / 8];
  if (sol_try_find_program_address(cpi.seeds, 2, in.program_id, (u8 *)expected, bump_seed) ||
      !key_equal_aligned((const u8 *)expected, record + ACC_KEY))
    return fail(ERR_INVALID_TAG_RECORD_ADDRESS);
  cpi.seeds[2].addr = bump_seed;
  cpi.seeds[2].len = 1;
  cpi.signer.addr = cpi.seeds;
  cpi.signer.len = 3;
  cpi.system_program = system + ACC_KEY;

  /* Registered, or otherwise in use: only an empty, system-owned address can become a record. */
  if (!key_is_zero_aligned(record + ACC_OWNER) || *(const u64 *)(record + ACC_DATA_LEN) != 0)
    return fail(ERR_ALREADY_REGISTERED);

  SolRent rent;
  SolClock clock;
  if ((err = sol_get_rent_sysvar(&rent))) return err;
  if ((err = sol_get_clock_sysvar(&clock))) return err;

  account_info(&cpi.infos[0], payer);
  account_info(&cpi.infos[1], record);
  if ((err = create_record(&cpi, in.program_id, rent_exempt_minimum(&rent, TAG_RECORD_SIZE))))
    return err;

  /*
   * The CPI updated the serialized account in place: data_len is now TAG_RECORD_SIZE and
   * the data (8-aligned in the input) is freshly allocated, so all zero: the tag's padding
   * needs no writes.
   */
  u8 *out = (u8 *)(record + ACC_DATA);
  *(u64 *)out = TAG_RECORD_DISCRIMINATOR;
  key_copy_aligned(out + REC_OWNER, owner + ACC_KEY);
  sol_memcpy_(out + REC_WALLET, in.wallet, PUBKEY_BYTES);
  out[REC_BUMP] = bump_seed[0];
  store_u64(out + REC_REGISTERED_AT, (u64)clock.unix_timestamp);
  store_u64(out + REC_TAG_LEN, in.tag_len); /* low 4 bytes; the high 4 land in the zeroed tag field */
  sol_memcpy_(out + REC_TAG, in.tag, in.tag_len);

  char line[sizeof(LOG_OK) - 1 + TAG_MAX_BYTES];
  sol_memcpy_(line, LOG_OK, sizeof(LOG_OK) - 1);
  sol_memcpy_(line + sizeof(LOG_OK) - 1, in.tag, in.tag_len);
  sol_log_(line, sizeof(LOG_OK) - 1 + in.tag_len);
  return 0;
}
