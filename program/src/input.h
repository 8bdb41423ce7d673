/*
 * The program's input (accounts, instruction data, program id) and its log lines, shared
 * by every instruction.
 */
#ifndef TAG_REGISTRY_INPUT_H
#define TAG_REGISTRY_INPUT_H

#include "abi.h"

typedef struct {
  const u8 *accounts[A_MAX]; /* serialized account headers, duplicates resolved */
  u64 num_accounts;
  const u8 *data; /* 8-aligned: it follows the u64 data length, itself 8-aligned */
  u64 data_len;
  const u8 *program_id;
} Input;

/*
 * Walks the serialized input (aligned, loader v2/v3): u64 account count, the accounts
 * (each either a full record or an 8-byte duplicate marker), u64 data length, data,
 * program id. A duplicate points at the header of the account it repeats, so its flags
 * and fields are that account's.
 */
static void parse_input(const u8 *input, Input *in) {
  u64 n = *(const u64 *)input;
  const u8 *p = input + 8;
  in->num_accounts = n;
  for (u64 i = 0; i < n; i++) {
    const u8 *account = p;
    if (p[0] != NON_DUP_MARKER) {
      u64 original = p[0];
      account = original < A_MAX ? in->accounts[original] : 0;
      p += 8;
    } else {
      u64 data_len = *(const u64 *)(p + ACC_DATA_LEN);
      p += ACC_DATA + data_len + MAX_PERMITTED_DATA_INCREASE;
      p = (const u8 *)(((u64)p + 7) & ~7ull);
      p += 8; /* rent_epoch */
    }
    if (i < A_MAX) in->accounts[i] = account;
  }
  in->data_len = *(const u64 *)p;
  in->data = p + 8;
  in->program_id = in->data + in->data_len;
}

static const char ANCHOR_CODE[] = "AnchorError occurred. Error Code: ";
static const char ANCHOR_NUMBER[] = ". Error Number: 60";
static const char ANCHOR_MESSAGE[] = ". Error Message: ";

/*
 * Logs Anchor's error line, "AnchorError occurred. Error Code: <Name>. Error Number: <n>.
 * Error Message: <msg>.", which AnchorError.parse and every Anchor client read, and returns
 * the code. One line, put together with sol_memcpy_ (a flat 10 CU per piece) rather than a
 * byte loop: a refusal costs little more than its log line. Codes are 6000..6099, so the
 * number is "60" and two digits.
 */
__attribute__((noinline)) static u64 fail(u64 code) {
  char line[sizeof(ANCHOR_CODE) + ERROR_NAME_MAX + sizeof(ANCHOR_NUMBER) + 2 + sizeof(ANCHOR_MESSAGE) + ERROR_MESSAGE_MAX + 1];
  const ErrorText *text = &ERROR_TEXTS[code - ERR_TAG_TOO_SHORT];
  u64 n = sizeof(ANCHOR_CODE) - 1;
  sol_memcpy_(line, ANCHOR_CODE, n);
  sol_memcpy_(line + n, text->name, text->name_len);
  n += text->name_len;
  sol_memcpy_(line + n, ANCHOR_NUMBER, sizeof(ANCHOR_NUMBER) - 1);
  n += sizeof(ANCHOR_NUMBER) - 1;
  u64 ones = code - 6000, tens = 0;
  while (ones >= 10) {
    ones -= 10;
    tens++;
  }
  line[n++] = (char)('0' + tens);
  line[n++] = (char)('0' + ones);
  sol_memcpy_(line + n, ANCHOR_MESSAGE, sizeof(ANCHOR_MESSAGE) - 1);
  n += sizeof(ANCHOR_MESSAGE) - 1;
  sol_memcpy_(line + n, text->msg, text->msg_len);
  n += text->msg_len;
  line[n++] = '.';
  sol_log_(line, n);
  return code;
}

/* Logs "<instruction>: <tag>", the one line a successful call leaves for explorers. */
static void log_done(u64 ix, const u8 *tag, u64 tag_len) {
  char line[IX_NAME_WIDTH + 2 + TAG_MAX_BYTES];
  u64 n = IX_NAME_LENGTHS[ix];
  sol_memcpy_(line, IX_NAMES[ix], n);
  line[n] = ':';
  line[n + 1] = ' ';
  sol_memcpy_(line + n + 2, tag, tag_len);
  sol_log_(line, n + 2 + tag_len);
}

#endif
