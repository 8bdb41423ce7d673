import type { Address } from '@solana/kit';
import { z } from 'zod';
import { recentPriorityFee } from '@/lib/chain/priority-fee';
import { rpcCall, type Chain, type SolanaRpc } from '@/lib/chain/rpc';
import type { PayerWarning } from '@/lib/features/identity/payer-warnings';
import type { PriorityFeePolicy } from '@/lib/core/config';
import type { Identity } from '@/lib/features/identity/schemas';
import { PublicKeyString } from '@/lib/core/keys';
import type { Cluster } from '@/lib/core/solana-pay';
import type { PayAsset } from './pay-asset';
import type { ServiceIdentity } from './pay-action-identity';
import { buildPayTransaction, writtenBy, type Payment } from './pay-transaction';

/*
 * The "pay @tag" Solana Action (Solana Actions spec 2.x): GET answers the metadata a wallet or
 * blink client renders as pay buttons, POST `{ account }` answers the transaction to sign.
 * Money stays between the payer and the payout wallet: the service builds, never signs or holds.
 */

export const ACTION_VERSION = '2.4';

/** CAIP-2 ids of the public clusters (`solana:` + the first 32 characters of the genesis hash). */
const BLOCKCHAIN_IDS: Partial<Record<Cluster, string>> = {
  'mainnet-beta': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  devnet: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  testnet: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
};

let localBlockchainId: Promise<string> | undefined;

/** The cluster's CAIP-2 id; a localnet's is read from its genesis hash once. */
export async function blockchainIdOf(cluster: Cluster, rpc: SolanaRpc): Promise<string> {
  const known = BLOCKCHAIN_IDS[cluster];
  if (known) return known;
  localBlockchainId ??= rpcCall(() => rpc.getGenesisHash().send()).then((hash) => `solana:${hash.slice(0, 32)}`);
  localBlockchainId.catch(() => (localBlockchainId = undefined));
  return localBlockchainId;
}

/**
 * The headers the Actions spec asks of every Action answer, actions.json's included: open CORS
 * (an Action is fetched from any wallet's or blink client's origin; nothing here is
 * credentialed) and the version and chain the client checks against its own.
 */
export function actionHeaders(blockchainId: string | null): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    // Only the methods the Action answers (its routes answer every other one 405).
    'Access-Control-Allow-Methods': 'GET,POST,OPTIONS',
    // The request headers blink clients send (@solana/actions' ACTIONS_CORS_HEADERS): the
    // version and chains they accept; X-Action-Version and X-Blockchain-Ids are our answer's.
    'Access-Control-Allow-Headers':
      'Content-Type, Authorization, Content-Encoding, Accept-Encoding, X-Accept-Action-Version, X-Accept-Blockchain-Ids',
    'Access-Control-Expose-Headers': 'X-Action-Version, X-Blockchain-Ids, X-Indexed-Slot',
    'X-Action-Version': ACTION_VERSION,
    ...(blockchainId ? { 'X-Blockchain-Ids': blockchainId } : {}),
  };
}

/** Buttons offered besides the free amount field: a few amounts in the asset's units. */
const PRESETS: Record<string, readonly string[]> = {
  SOL: ['0.1', '0.5', '1'],
  USDC: ['5', '20', '50'],
  USDT: ['5', '20', '50'],
  PYUSD: ['5', '20', '50'],
  EURC: ['5', '20', '50'],
};

export interface ActionMetadataInput {
  identity: Identity;
  asset: PayAsset;
  /** Where the Action lives: `https://host/api/actions/pay/alice` (links are made relative to it). */
  actionPath: string;
  icon: string;
  /** What the payer must read first (lib/features/identity/payer-warnings.ts): they open the description. */
  warnings: readonly PayerWarning[];
  /** Why nothing can be paid in the profile's token (its mint has a refused extension): the Action is disabled. */
  refusal?: string;
}

/** GET /api/actions/pay/{tag}: the ActionGetResponse. */
export function payActionMetadata({ identity, asset, actionPath, icon, warnings, refusal }: ActionMetadataInput) {
  const name = identity.displayName ? `${identity.displayName} (${identity.tag})` : identity.tag;
  const unsafeWarning = warnings.find((w) => w.code === 'unsafe_payout');
  const disabledBy = unsafeWarning?.message ?? refusal;
  const fallback =
    asset.kind === 'sol' && asset.fallback
      ? ` ${identity.tag} prefers ${identity.preferredToken}, which has no mint on this cluster.`
      : '';
  return {
    type: 'action' as const,
    icon,
    title: `Pay ${name}`,
    description: `${warnings.map((w) => `Warning: ${w.message} `).join('')}Send ${asset.symbol} straight to the payout wallet of ${identity.tag} (${identity.wallet}).${fallback}`,
    label: `Pay ${identity.tag}`,
    // A payout that would be lost, or a token the payee cannot keep, is never offered.
    ...(disabledBy ? { disabled: true, error: { message: disabledBy } } : {}),
    links: {
      actions: [
        ...(PRESETS[asset.symbol] ?? []).map((amount) => ({
          type: 'transaction' as const,
          label: `Send ${amount} ${asset.symbol}`,
          href: `${actionPath}?amount=${amount}`,
        })),
        {
          type: 'transaction' as const,
          label: `Send ${asset.symbol}`,
          href: `${actionPath}?amount={amount}`,
          parameters: [
            {
              type: 'number' as const,
              name: 'amount',
              label: `Amount in ${asset.symbol}`,
              required: true,
              min: 10 ** -asset.decimals,
            },
          ],
        },
      ],
    },
  };
}

/** POST body (the spec allows more fields; they are ignored). */
export const PayActionRequest = z.object({
  account: PublicKeyString.meta({ description: 'The payer: signs and pays the fee' }),
});

/** POST query: the amount in the asset's units, and an optional reference key chosen by the payer's app. */
export const PayActionQuery = z.object({
  // refused, never trimmed: an amount with a BOM or a zero-width space is not the amount shown
  amount: z
    .string({ message: 'is required' })
    .max(40)
    .regex(/^[0-9.]+$/, {
      message: 'must be written with the digits 0-9 and a decimal point only (no spaces or invisible characters)',
    }),
  reference: PublicKeyString.optional(),
});

export interface PayActionInput {
  /** The tag paid, with `@`. */
  tag: string;
  /** The payout wallet the reference was just issued for (lib/features/payments/issue-reference.ts). */
  wallet: string;
  asset: PayAsset;
  /** The payer: signs and pays the fee. */
  account: string;
  /** As the payer gave it, and in base units. */
  amount: string;
  units: bigint;
  /** The reference this call issued. */
  reference: Address;
  /** The cluster. */
  chain: Pick<Chain, 'rpc'>;
  /** How the compute units are priced (config `priorityFee`). */
  priorityFee: PriorityFeePolicy;
  /** The service identity that signs the Action Identity memo (./pay-action-identity.ts). */
  actionIdentity: ServiceIdentity;
}

/**
 * POST /api/actions/pay/{tag}: the unsigned transfer of a reference just issued (its checks,
 * payee, asset and amount are issueReference's), its reference key and a message.
 */
export async function buildPayAction(input: PayActionInput) {
  const { asset, reference, chain } = input;
  const payment: Payment = {
    payer: input.account as Address,
    wallet: input.wallet as Address,
    asset,
    amount: input.units,
    reference,
  };
  const writable = await writtenBy(payment);
  const [{ value: latest }, microLamports] = await Promise.all([
    rpcCall(() => chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()),
    recentPriorityFee(chain.rpc, writable, input.priorityFee),
  ]);
  const { transaction } = await buildPayTransaction({
    payment,
    identity: input.actionIdentity,
    latest,
    microLamports,
  });
  return {
    type: 'transaction' as const,
    transaction,
    message: `Pay ${input.amount} ${asset.symbol} to ${input.tag}`,
    /** Not in the spec (extra fields are allowed): the key to find the payment by. */
    reference,
  };
}
