'use client';

import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** A tag and an address are codes, not prose: the browser must not capitalise, correct or complete them. */
const NOT_PROSE = { autoCapitalize: 'none', autoCorrect: 'off', autoComplete: 'off', spellCheck: false } as const;

type InputExtras = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'value' | 'onChange' | 'prefix'>;

interface CodeFieldProps extends InputExtras {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The line under the field; `problem`, when there is one, stands in for it (and marks the input invalid). */
  hint: ReactNode;
  problem?: string | null;
  /** Shown before the input and not read out, as the `@` of a tag. */
  prefix?: string;
  /** The line under the field is a live status (`status-line` in `tone`), not a hint. */
  status?: { tone: string; testId: string };
}

/**
 * A labelled text field for a code (a tag, a Solana address, a tag typed out to confirm), with
 * the line that describes it. Attributes in `input` (name, disabled, aria-invalid…) go to the
 * input and win over the defaults.
 */
export function CodeField({ label, value, onChange, hint, problem = null, prefix, status, ...input }: CodeFieldProps) {
  const id = useId();
  const field = (
    <input
      id={id}
      type="text"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      {...NOT_PROSE}
      aria-invalid={problem ? true : undefined}
      aria-describedby={`${id}-hint`}
      {...input}
    />
  );
  const line = status
    ? { className: `status-line ${status.tone}`, 'aria-live': 'polite' as const, 'data-testid': status.testId }
    : { className: problem ? 'field-error' : 'hint' };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {prefix ? (
        <div className="input-prefix">
          <span aria-hidden="true">{prefix}</span>
          {field}
        </div>
      ) : (
        field
      )}
      <p id={`${id}-hint`} {...line}>
        {problem ?? hint}
      </p>
    </div>
  );
}
