import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * A Wallet Standard wallet for the browser tests, injected with `page.addInitScript` before
 * the app loads. It registers through the `wallet-standard:register-wallet` /
 * `wallet-standard:app-ready` events, as an extension's content script does, and implements
 * connect, disconnect, events, `solana:signMessage` and `solana:signTransaction` (legacy
 * and v0 wire format: it signs the message bytes and puts the signature at the owner's
 * index), and, when asked, `solana:signIn` (Sign-In With Solana: it writes the message from
 * the input fields as the SIWS grammar and Phantom do, then signs it). Signing is
 * tweetnacl, inlined, with the secret key the test gives it.
 *
 * In the page, `window.__testWallet` counts signing requests and switches refusals:
 * `{ address, reject, signMessageCount, signTransactionCount, signInCount, signInInputs }`.
 */

export const TEST_WALLET_NAME = 'E2E Test Wallet';

export interface TestWalletOptions {
  /** 64-byte ed25519 secret key (tweetnacl layout: seed ‖ public key). */
  secretKey: Uint8Array;
  name?: string;
  /** Refuse every signing request with a user-rejection error (code 4001) from the start. */
  rejectSigning?: boolean;
  /** Offer Sign-In With Solana (`solana:signIn`), as Phantom, Solflare and Backpack do. */
  offerSignIn?: boolean;
  /**
   * More accounts the wallet holds (Phantom and Solflare hold several): `switchTestWalletAccount`
   * makes one the connected account, as a person switching accounts does.
   */
  otherSecretKeys?: Uint8Array[];
}

const require = createRequire(import.meta.url);
let naclSource: string | undefined;

function tweetnaclSource(): string {
  naclSource ??= readFileSync(require.resolve('tweetnacl/nacl-fast.min.js'), 'utf8');
  return naclSource;
}

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0a7"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff">T</text></svg>',
  ).toString('base64');

/** The init script's source: tweetnacl, then the wallet, in one closure. */
export function testWalletScript(options: TestWalletOptions): string {
  const config = {
    name: options.name ?? TEST_WALLET_NAME,
    secretKey: Array.from(options.secretKey),
    reject: options.rejectSigning ?? false,
    offerSignIn: options.offerSignIn ?? false,
    others: (options.otherSecretKeys ?? []).map((key) => Array.from(key)),
    icon: ICON,
  };
  return `(function () {
  var module = { exports: {} };
  ${tweetnaclSource()}
  var nacl = module.exports;
  var CONFIG = ${JSON.stringify(config)};
  (${walletMain.toString()})(nacl, CONFIG);
})();`;
}

/** Adds the wallet to every page the test opens from now on. */
export async function installTestWallet(page: Page, options: TestWalletOptions): Promise<void> {
  await page.addInitScript({ content: testWalletScript(options) });
}

export interface WalletState {
  reject: boolean;
  signMessageCount: number;
  signTransactionCount: number;
  signInCount: number;
  /** The input of each `solana:signIn` call, as the page passed it. */
  signInInputs: Record<string, unknown>[];
}

/** Counters and the refusal switch of the wallet in `page`. */
export async function walletState(page: Page): Promise<WalletState> {
  return page.evaluate(() => {
    const w = (window as unknown as { __testWallet: WalletState }).__testWallet;
    return {
      reject: w.reject,
      signMessageCount: w.signMessageCount,
      signTransactionCount: w.signTransactionCount,
      signInCount: w.signInCount,
      signInInputs: w.signInInputs.map((input) => ({ ...input })),
    };
  });
}

export async function setWalletRejects(page: Page, reject: boolean): Promise<void> {
  await page.evaluate((r) => {
    (window as unknown as { __testWallet: { reject: boolean } }).__testWallet.reject = r;
  }, reject);
}

/** Makes the account at `address` (the first key or one of `otherSecretKeys`) the connected one; the page hears a `change` event. */
export async function switchTestWalletAccount(page: Page, address: string): Promise<void> {
  await page.evaluate((a) => {
    (window as unknown as { __testWallet: { switchTo(address: string): void } }).__testWallet.switchTo(a);
  }, address);
}

/*
 * Runs in the page (serialized with toString): no imports, no closures over Node values.
 * Written in plain ES2017 so it needs no transpiling.
 */
function walletMain(
  nacl: { sign: { detached(message: Uint8Array, secretKey: Uint8Array): Uint8Array } },
  config: {
    name: string;
    secretKey: number[];
    others: number[][];
    reject: boolean;
    offerSignIn: boolean;
    icon: string;
  },
): void {
  const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  function base58(bytes: Uint8Array): string {
    const digits = [0];
    for (const byte of bytes) {
      let carry = byte;
      for (let i = 0; i < digits.length; i++) {
        carry += digits[i] << 8;
        digits[i] = carry % 58;
        carry = (carry / 58) | 0;
      }
      while (carry) {
        digits.push(carry % 58);
        carry = (carry / 58) | 0;
      }
    }
    let out = '';
    for (let k = 0; k < bytes.length && bytes[k] === 0; k++) out += '1';
    for (let q = digits.length - 1; q >= 0; q--) out += ALPHABET[digits[q]];
    return out;
  }
  function readShortVec(bytes: Uint8Array, offset: number): { value: number; size: number } {
    let value = 0;
    let size = 0;
    for (;;) {
      const b = bytes[offset + size];
      value |= (b & 0x7f) << (7 * size);
      size += 1;
      if ((b & 0x80) === 0) return { value, size };
    }
  }

  const CHAINS = ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'] as const;
  const held = [config.secretKey].concat(config.others).map((key) => {
    const secret = new Uint8Array(key);
    const pub = secret.slice(32);
    const addr = base58(pub);
    const view = Object.freeze({
      address: addr,
      publicKey: pub,
      chains: CHAINS,
      features: config.offerSignIn
        ? ['solana:signIn', 'solana:signMessage', 'solana:signTransaction']
        : ['solana:signMessage', 'solana:signTransaction'],
      label: config.name,
    });
    return { secretKey: secret, publicKey: pub, address: addr, account: view };
  });
  // The connected account's keys: `switchTo` changes them.
  let secretKey = held[0].secretKey;
  let publicKey = held[0].publicKey;
  let address = held[0].address;
  let account = held[0].account;
  const state = {
    address,
    switchTo(to: string): void {
      const found = held.filter((h) => h.address === to)[0];
      if (!found) throw new Error('The test wallet does not hold ' + to + '.');
      secretKey = found.secretKey;
      publicKey = found.publicKey;
      address = found.address;
      account = found.account;
      state.address = address;
      if (accounts.length > 0) {
        accounts = [account];
        emit();
      }
    },
    reject: config.reject,
    signMessageCount: 0,
    signTransactionCount: 0,
    signInCount: 0,
    signInInputs: [] as SignInInput[],
    connectCount: 0,
  };
  (window as unknown as { __testWallet: typeof state }).__testWallet = state;

  let accounts: (typeof account)[] = [];
  let listeners: ((props: { accounts: readonly (typeof account)[] }) => void)[] = [];
  const emit = () => listeners.slice().forEach((fn) => fn({ accounts: accounts.slice() }));

  function rejection(): Error {
    const err = new Error('User rejected the request.') as Error & { code: number };
    err.code = 4001;
    return err;
  }

  /** Wire transaction → the same bytes with our signature at our index among the signers. */
  function signWire(bytes: Uint8Array): Uint8Array {
    const sigCount = readShortVec(bytes, 0);
    const sigStart = sigCount.size;
    const message = bytes.slice(sigStart + 64 * sigCount.value);
    const header = message[0] & 0x80 ? 1 : 0; // a versioned message starts with 0x80 | version
    const required = message[header];
    const keys = readShortVec(message, header + 3);
    const keysStart = header + 3 + keys.size;
    let index = -1;
    for (let i = 0; i < Math.min(required, keys.value) && index < 0; i++) {
      const key = message.subarray(keysStart + 32 * i, keysStart + 32 * (i + 1));
      if (key.every((b, j) => b === publicKey[j])) index = i;
    }
    if (index < 0) throw new Error('This transaction does not need our signature.');
    const out = bytes.slice();
    out.set(nacl.sign.detached(message, secretKey), sigStart + 64 * index);
    return out;
  }

  interface SignInInput {
    domain?: string;
    address?: string;
    statement?: string;
    uri?: string;
    version?: string;
    chainId?: string;
    nonce?: string;
    issuedAt?: string;
    expirationTime?: string;
    notBefore?: string;
    requestId?: string;
    resources?: readonly string[];
  }

  /**
   * The message a SIWS wallet shows and signs (the grammar of Sign-In With Solana, after
   * EIP-4361): header, address, the statement after a blank line, then the fields present
   * after another blank line, in this order.
   */
  function signInText(input: SignInInput & { domain: string; address: string }): string {
    let text = input.domain + ' wants you to sign in with your Solana account:\n' + input.address;
    if (input.statement) text += '\n\n' + input.statement;
    const fields: string[] = [];
    const lines: [keyof SignInInput, string][] = [
      ['uri', 'URI'],
      ['version', 'Version'],
      ['chainId', 'Chain ID'],
      ['nonce', 'Nonce'],
      ['issuedAt', 'Issued At'],
      ['expirationTime', 'Expiration Time'],
      ['notBefore', 'Not Before'],
      ['requestId', 'Request ID'],
    ];
    for (const [key, label] of lines) {
      if (input[key]) fields.push(label + ': ' + input[key]);
    }
    if (input.resources) {
      fields.push('Resources:');
      for (const resource of input.resources) fields.push('- ' + resource);
    }
    if (fields.length) text += '\n\n' + fields.join('\n');
    return text;
  }

  const signInFeature = {
    'solana:signIn': {
      version: '1.0.0',
      signIn: async (...inputs: SignInInput[]) => {
        state.signInCount += 1;
        state.signInInputs.push(...inputs);
        if (state.reject) throw rejection();
        if (accounts.length === 0) {
          accounts = [account];
          emit();
        }
        return inputs.map((input) => {
          if (input.address && input.address !== address)
            throw new Error('This wallet does not hold ' + input.address + '.');
          // A wallet fills in what the page left out: its own account, the page's host.
          const text = signInText(Object.assign({}, input, { domain: input.domain || window.location.host, address }));
          const signedMessage = new TextEncoder().encode(text);
          return {
            account,
            signedMessage,
            signature: nacl.sign.detached(signedMessage, secretKey),
            signatureType: 'ed25519',
          };
        });
      },
    },
  };

  const wallet = {
    version: '1.0.0' as const,
    name: config.name,
    icon: config.icon,
    chains: CHAINS,
    get accounts() {
      return accounts.slice();
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => {
          state.connectCount += 1;
          if (accounts.length === 0) {
            accounts = [account];
            emit();
          }
          return { accounts: accounts.slice() };
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          accounts = [];
          emit();
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (event: string, fn: (props: { accounts: readonly (typeof account)[] }) => void) => {
          if (event !== 'change') return () => {};
          listeners.push(fn);
          return () => {
            listeners = listeners.filter((l) => l !== fn);
          };
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs: { message: Uint8Array }[]) => {
          state.signMessageCount += 1;
          if (state.reject) throw rejection();
          return inputs.map((input) => ({
            signedMessage: input.message,
            signature: nacl.sign.detached(input.message, secretKey),
          }));
        },
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: async (...inputs: { transaction: Uint8Array }[]) => {
          state.signTransactionCount += 1;
          if (state.reject) throw rejection();
          return inputs.map((input) => ({ signedTransaction: signWire(input.transaction) }));
        },
      },
      ...(config.offerSignIn ? signInFeature : {}),
    },
  };

  const register = (api: { register(w: typeof wallet): unknown }) => api.register(wallet);
  try {
    window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
  } catch (err) {
    console.error('test wallet: could not announce itself', err);
  }
  window.addEventListener('wallet-standard:app-ready', (event) => register((event as CustomEvent).detail));
}
