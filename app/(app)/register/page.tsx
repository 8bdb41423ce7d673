import { AirdropButton } from '@/components/register/AirdropButton';
import { RegisterFlow } from '@/components/register/RegisterFlow';
import { getConfig } from '@/lib/core/config';
import { getSessionKey } from '@/lib/web/server/session';
import { buildRegistration } from './actions';

export const metadata = { title: 'Register a tag' };

export default async function RegisterPage() {
  const sessionKey = await getSessionKey();
  const config = getConfig();
  const localnet = config.solana.cluster === 'localnet';
  const costSettings = { programId: config.solana.programId, maxMicroLamports: config.priorityFee.maxMicroLamports };
  return (
    <>
      <h1>Register a tag</h1>
      <p className="lead">
        Your wallet signs one transaction that records the tag on Solana. You pay the network fee and the account&apos;s
        rent; this service never holds your keys.
      </p>
      {localnet ? <AirdropButton /> : null}
      <RegisterFlow sessionKey={sessionKey} buildRegistration={buildRegistration} costSettings={costSettings} />
    </>
  );
}
