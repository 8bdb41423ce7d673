/*
 * The `preTokenBalances` / `postTokenBalances` of a transaction's meta, as a validator reports
 * them: one entry per account of the transaction that is an SPL Token or Token-2022 token
 * account, with its mint, owner and amount. Payment validation (Solana Pay's rule) reads them.
 */

const TOKEN_PROGRAMS = new Set([
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
]);
/** A token account is 165 bytes: mint (32), owner (32), amount (u64 LE)…; Token-2022's may be longer, account type 2 at byte 165. */
const TOKEN_ACCOUNT_SIZE = 165;
const ACCOUNT_TYPE_TOKEN = 2;
const MINT_DECIMALS_OFFSET = 44;

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string };
}

interface AccountLike {
  data: Uint8Array;
  owner: string;
}

/** The token balances of `keys` as `read` finds the accounts now. */
export function tokenBalances(
  keys: string[],
  read: (address: string) => AccountLike | null,
  encode: (bytes: Uint8Array) => string,
): TokenBalance[] {
  const balances: TokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const account = read(key);
    if (!account || !TOKEN_PROGRAMS.has(account.owner)) return;
    const { data } = account;
    const isToken =
      data.length === TOKEN_ACCOUNT_SIZE ||
      (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_TOKEN);
    if (!isToken) return;
    const mint = encode(data.subarray(0, 32));
    const decimals = read(mint)?.data[MINT_DECIMALS_OFFSET] ?? 0;
    const amount = Buffer.from(data.subarray(64, 72)).readBigUInt64LE();
    const text = amount.toString().padStart(decimals + 1, '0');
    const uiAmountString = decimals
      ? `${text.slice(0, -decimals)}.${text.slice(-decimals)}`.replace(/\.?0+$/, '')
      : text;
    balances.push({
      accountIndex,
      mint,
      owner: encode(data.subarray(32, 64)),
      programId: account.owner,
      uiTokenAmount: { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString },
    });
  });
  return balances;
}
