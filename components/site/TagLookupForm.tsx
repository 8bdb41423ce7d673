import { TAG_MAX_BYTES } from '@/lib/identity/tag';

/**
 * Looks a tag up: a plain GET form to /profile, which redirects to /@tag. Works without
 * JavaScript and ships none.
 */
export function TagLookupForm({ defaultValue = '', error }: { defaultValue?: string; error?: string }) {
  return (
    <form className="inline-form" action="/profile" method="get" role="search" aria-label="Tag lookup">
      <div className="field">
        <label htmlFor="lookup-tag">Look up a tag</label>
        <div className="input-prefix">
          <span aria-hidden="true">@</span>
          <input
            id="lookup-tag"
            name="tag"
            type="text"
            required
            maxLength={TAG_MAX_BYTES + 1}
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="alice"
            defaultValue={defaultValue}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'lookup-error' : undefined}
          />
        </div>
        {error ? (
          <p id="lookup-error" className="field-error">
            {error}
          </p>
        ) : null}
      </div>
      <button className="button" type="submit">
        Look up
      </button>
    </form>
  );
}
