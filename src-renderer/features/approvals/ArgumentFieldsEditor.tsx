import { argumentFields, withArgument } from './argumentFields.js';
import './approvals.css';

/**
 * The string arguments of a queued call as labelled fields (To, Subject, Body...). They edit the same JSON the
 * arguments box holds, so what is approved is exactly what is shown.
 */
export function ArgumentFieldsEditor({
  args,
  original,
  disabled,
  onChange,
}: {
  /** The arguments as edited so far; null while the JSON box does not parse. */
  args: Record<string, unknown> | null;
  original: Record<string, unknown>;
  disabled: boolean;
  onChange: (argsText: string) => void;
}) {
  if (args === null) {
    return (
      <p className="muted approval-fields-note" data-testid="approval-fields-paused">
        The fields come back once the JSON below is valid.
      </p>
    );
  }
  const fields = argumentFields(args);
  if (fields.length === 0) return null;
  return (
    <fieldset className="approval-fields" data-testid="approval-fields">
      <legend>Exactly these values will be used; Homebody checks them again before it runs the call.</legend>
      {fields.map((field) => {
        const changed = original[field.name] !== field.value;
        const common = {
          'data-testid': 'approval-field',
          'data-arg': field.name,
          'data-changed': changed,
          value: field.value,
          disabled,
          spellCheck: field.multiline,
        };
        return (
          <label className={`field approval-field${changed ? ' is-changed' : ''}`} key={field.name}>
            <span>
              {field.label}
              {changed && <span className="approval-field-changed"> (edited)</span>}
            </span>
            {field.multiline ? (
              <textarea
                {...common}
                rows={Math.min(12, field.value.split('\n').length + 1)}
                onChange={(e) => onChange(withArgument(args, field.name, e.target.value))}
              />
            ) : (
              <input
                type="text"
                {...common}
                onChange={(e) => onChange(withArgument(args, field.name, e.target.value))}
              />
            )}
          </label>
        );
      })}
    </fieldset>
  );
}
