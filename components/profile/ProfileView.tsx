import type { PayerWarning } from '@/lib/identity/payer-warnings';
import type { Identity } from '@/lib/identity/schemas';
import { avatarPath } from '@/lib/web/avatar-path';
import { payToken, solanaPayLink, type Cluster } from '@/lib/web/solana-pay';
import { CopyButton } from './CopyButton';
import { PayerWarnings } from './PayerWarnings';
import { PayQrCode } from './PayQrCode';

/** The public profile (/@tag): rendered on the server; only the copy button runs in the browser. */
export function ProfileView({ identity, cluster, warnings }: { identity: Identity; cluster: Cluster; warnings: readonly PayerWarning[] }) {
  const name = identity.displayName ?? identity.tag;
  const token = payToken(identity.preferredToken, cluster);
  const link = solanaPayLink({ wallet: identity.wallet, mint: token.mint, label: name });
  return (
    <article aria-labelledby="profile-name">
      <header className="profile-head">
        {identity.avatar ? (
          // Served from our own origin (lib/web/avatar-path.ts): the page contacts no third party.
          // eslint-disable-next-line @next/next/no-img-element -- our avatar route, no image optimizer
          <img className="avatar" src={avatarPath(identity.tag.slice(1), identity.avatar)} alt="" width={96} height={96} />
        ) : (
          <div className="avatar" aria-hidden="true">
            {identity.tag.slice(1, 2).toUpperCase()}
          </div>
        )}
        <div>
          <h1 id="profile-name">{name}</h1>
          {identity.displayName ? <p className="profile-tag">{identity.tag}</p> : null}
          {identity.verified || identity.merchant ? (
            <div className="badges">
              {identity.verified ? <span className="badge verified">Verified</span> : null}
              {identity.merchant ? <span className="badge merchant">Merchant</span> : null}
            </div>
          ) : null}
        </div>
      </header>

      {identity.bio ? <p className="bio">{identity.bio}</p> : null}

      <PayerWarnings warnings={warnings} />

      <section className="card pay" aria-labelledby="pay-heading">
        <div>
          <h2 id="pay-heading">Pay {identity.tag}</h2>
          <p className="muted">Payout wallet</p>
          <div className="copy-row">
            <code className="mono" id="payout-wallet">
              {identity.wallet}
            </code>
            <CopyButton text={identity.wallet} label="Copy the payout wallet address" />
          </div>
          <p>
            <a className="button" href={link}>
              Pay with a Solana wallet ({token.label.length > 12 ? 'token' : token.label})
            </a>
          </p>
          {token.unavailable ? (
            <p className="muted">
              {identity.tag} prefers {identity.preferredToken}, which has no mint on this cluster; the link asks for SOL.
            </p>
          ) : token.mint ? (
            <p className="muted">
              Token mint <span className="mono">{token.mint}</span>
            </p>
          ) : null}
        </div>
        <PayQrCode link={link} label={`QR code of the Solana Pay link to pay ${identity.tag}`} />
      </section>
    </article>
  );
}
