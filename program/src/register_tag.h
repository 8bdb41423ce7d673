/*
 * register_tag(tag: string, wallet: pubkey): creates the record at the PDA ["tag", tag]
 * through a PDA-signed System Program CPI, the fee payer paying rent; or, for a tag whose
 * record rests (resting.h), rewrites that record in place, by its previous owner at any
 * time and by anyone once the rest is over. The payout wallet is account 4 and consents
 * (wallet.h).
 */
#ifndef TAG_REGISTRY_REGISTER_TAG_H
#define TAG_REGISTRY_REGISTER_TAG_H

#include "input.h"
#include "pda.h"
#include "rent.h"
#include "resting.h"
#include "wallet.h"

/* System Program instruction indices (u32 LE enum tags). */
#define SYS_CREATE_ACCOUNT 0
#define SYS_ASSIGN 1
#define SYS_TRANSFER 2
#define SYS_ALLOCATE 8

/* register_tag data: discriminator | tag (u32 len + bytes) | wallet. */
#define REGISTER_FIXED_BYTES (IX_DISCRIMINATOR_BYTES + 4 + PUBKEY_BYTES)

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

/*
 * What the tag's address holds: nothing the program owns (a new record is created), a
 * resting record `signer` may take now (rewritten in place), or a refusal.
 */
enum { ADDRESS_EMPTY, ADDRESS_RESTING_TAKEN };
static u64 address_state(const u8 *record, const Input *in, const u8 *signer, i64 now, u64 *state) {
  const u8 *data = record + ACC_DATA;
  if (key_is_zero_aligned(record + ACC_OWNER) && *(const u64 *)(record + ACC_DATA_LEN) == 0) {
    *state = ADDRESS_EMPTY;
    return 0;
  }
  /* The canonical PDA and owned by this program: only register_tag wrote it, as a TagRecord. */
  if (!key_equal_aligned(record + ACC_OWNER, in->program_id) || *(const u64 *)(record + ACC_DATA_LEN) != TAG_RECORD_SIZE ||
      *(const u64 *)data != TAG_RECORD_DISCRIMINATOR || !record_is_resting(data))
    return ERR_ALREADY_REGISTERED;
  if (!key_equal_aligned(signer + ACC_KEY, data + REC_OWNER) && !rest_is_over(data, now)) return ERR_TAG_RESTING;
  *state = ADDRESS_RESTING_TAKEN;
  return 0;
}

static u64 register_tag(const Input *in) {
  const u8 *data = in->data;
  if (in->data_len < REGISTER_FIXED_BYTES) return fail(ERR_INVALID_INSTRUCTION_DATA);
  u64 tag_len = load_u32(data + 8);
  /* truncated, or trailing bytes */
  if (in->data_len != REGISTER_FIXED_BYTES + tag_len) return fail(ERR_INVALID_INSTRUCTION_DATA);
  const u8 *tag = data + 12;
  /* The wallet argument follows the tag, so it is unaligned: copy it once. */
  u64 wallet[PUBKEY_BYTES / 8];
  sol_memcpy_(wallet, tag + tag_len, PUBKEY_BYTES);

  /* Four accounts is the call of the build before, which took no wallet account. */
  if (in->num_accounts < A_REGISTER_WALLET) return fail(ERR_NOT_ENOUGH_ACCOUNTS);
  if (in->num_accounts < A_MAX) return fail(ERR_WALLET_ACCOUNT_MISSING);
  u64 err = check_tag(tag, tag_len);
  if (err) return fail(err);

  const u8 *record = in->accounts[A_TAG_RECORD];
  const u8 *owner = in->accounts[A_OWNER];
  const u8 *payer = in->accounts[A_FEE_PAYER];
  const u8 *system = in->accounts[A_SYSTEM_PROGRAM];
  if (!owner[ACC_IS_SIGNER]) return fail(ERR_OWNER_NOT_SIGNER);
  if (!payer[ACC_IS_SIGNER]) return fail(ERR_FEE_PAYER_NOT_SIGNER);
  if (!payer[ACC_IS_WRITABLE]) return fail(ERR_FEE_PAYER_NOT_WRITABLE);
  if (!record[ACC_IS_WRITABLE]) return fail(ERR_TAG_RECORD_NOT_WRITABLE);
  if (!key_is_zero_aligned(system + ACC_KEY)) return fail(ERR_INVALID_SYSTEM_PROGRAM);
  if ((err = check_wallet(in->accounts[A_REGISTER_WALLET], (const u8 *)wallet))) return fail(err);

  Cpi cpi;
  u8 bump_seed[1];
  cpi.seeds[0].addr = (const u8 *)"tag";
  cpi.seeds[0].len = 3;
  cpi.seeds[1].addr = tag;
  cpi.seeds[1].len = tag_len;
  u64 expected[PUBKEY_BYTES / 8];
  if (find_tag_address(tag, tag_len, in->program_id, expected, bump_seed) ||
      !key_equal_aligned((const u8 *)expected, record + ACC_KEY))
    return fail(ERR_INVALID_TAG_RECORD_ADDRESS);
  cpi.seeds[2].addr = bump_seed;
  cpi.seeds[2].len = 1;
  cpi.signer.addr = cpi.seeds;
  cpi.signer.len = 3;
  cpi.system_program = system + ACC_KEY;

  SolClock clock;
  if ((err = sol_get_clock_sysvar(&clock))) return err;
  u64 state;
  if ((err = address_state(record, in, owner, clock.unix_timestamp, &state))) return fail(err);
  SolRent rent;
  if ((err = sol_get_rent_sysvar(&rent))) return err;
  u64 deposit = rent_exempt_minimum(&rent, TAG_RECORD_SIZE);

  account_info(&cpi.infos[0], payer);
  account_info(&cpi.infos[1], record);
  if (state == ADDRESS_EMPTY) {
    if ((err = create_record(&cpi, in->program_id, deposit))) return err;
  } else {
    /* The resting record keeps its deposit; top it up only if the rent has grown since. */
    u64 held = *(const u64 *)(record + ACC_LAMPORTS);
    if (held < deposit) {
      u8 transfer[4 + 8];
      store_u64(transfer, SYS_TRANSFER);
      store_u64(transfer + 4, deposit - held);
      if ((err = system_invoke(&cpi, transfer, sizeof(transfer), 1, 0))) return err;
    }
  }

  /*
   * The CPI updated the serialized account in place: data_len is now TAG_RECORD_SIZE and
   * the data (8-aligned in the input) is freshly allocated, so all zero; a resting record
   * holds this same tag, its padding zero. Every field is written, so both end alike.
   */
  u8 *out = (u8 *)(record + ACC_DATA);
  *(u64 *)out = TAG_RECORD_DISCRIMINATOR;
  key_copy_aligned(out + REC_OWNER, owner + ACC_KEY);
  key_copy_aligned(out + REC_WALLET, (const u8 *)wallet);
  key_zero_aligned(out + REC_PENDING_OWNER);
  out[REC_BUMP] = bump_seed[0];
  store_u64(out + REC_REGISTERED_AT, (u64)clock.unix_timestamp);
  store_u64(out + REC_TAG_LEN, tag_len); /* low 4 bytes; the high 4 land in the tag field, written next */
  sol_memcpy_(out + REC_TAG, tag, tag_len);

  log_done(IX_REGISTER_TAG, tag, tag_len);
  return 0;
}

#endif
