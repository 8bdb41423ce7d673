import {
  FLOW_STEPS,
  statusLine,
  stepStatuses,
  type FlowState,
  type FlowStep,
} from '@/lib/web/browser/transaction-flow';

const STATUS_TEXT = { pending: 'not started', active: 'in progress', done: 'done', failed: 'failed' } as const;

/** The steps of an on-chain action and where each one is; the current one is announced. */
export function TransactionSteps({
  state,
  labels,
  title,
  statusTestId,
}: {
  state: FlowState;
  labels: Readonly<Record<FlowStep, string>>;
  /** The list's accessible name ("Registration steps"). */
  title: string;
  /** The status line's test id, for the browser tests. */
  statusTestId?: string;
}) {
  const statuses = stepStatuses(state);
  return (
    <div className="register-progress">
      <p className="status-line" role="status" data-testid={statusTestId}>
        {statusLine(state, labels)}
      </p>
      <ol className="steps" aria-label={title}>
        {FLOW_STEPS.map((step) => (
          <li key={step} data-step={step} data-status={statuses[step]}>
            {labels[step]}
            <span className="visually-hidden"> ({STATUS_TEXT[statuses[step]]})</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
