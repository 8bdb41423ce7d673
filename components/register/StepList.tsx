import { REGISTER_STEPS, STEP_LABELS, stepStatuses, type RegisterState } from '@/lib/web/register-flow';

const STATUS_TEXT = { pending: 'not started', active: 'in progress', done: 'done', failed: 'failed' } as const;

/** The register steps and where each one is; the current one is announced. */
export function StepList({ state }: { state: RegisterState }) {
  const statuses = stepStatuses(state);
  const current =
    state.status === 'running'
      ? `${STEP_LABELS[state.step]}…`
      : state.status === 'failed'
        ? `${STEP_LABELS[state.step]}: failed`
        : state.status === 'done'
          ? 'Done'
          : '';
  return (
    <div className="register-progress">
      <p className="status-line" role="status" data-testid="register-status">
        {current}
      </p>
      <ol className="steps" aria-label="Registration steps">
        {REGISTER_STEPS.map((step) => (
          <li key={step} data-step={step} data-status={statuses[step]}>
            {STEP_LABELS[step]}
            <span className="visually-hidden"> ({STATUS_TEXT[statuses[step]]})</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
