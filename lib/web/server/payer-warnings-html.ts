import 'server-only';
import type { PayerWarning } from '@/lib/features/identity/payer-warnings';
import { html, type Html } from './html';

/** The warnings a payer reads before the pay section of /@tag (lib/features/identity/payer-warnings.ts decides them); nothing when there are none. */
export function payerWarningsHtml(warnings: readonly PayerWarning[]): Html | '' {
  if (warnings.length === 0) return '';
  return html`<section
    class="card payer-warnings"
    role="alert"
    aria-label="Before you pay"
    data-testid="payer-warnings"
  >
    ${warnings.map((warning) => html`<p class="warn" data-warning="${warning.code}">${warning.message}</p>`)}
  </section>`;
}
