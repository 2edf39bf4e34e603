import { useId, useState, type FormEvent } from 'react';
import { Button } from './Button.js';

export interface GgufPathFormProps {
  readonly busy: boolean;
  /** Resolves true when the path was taken (the field is then cleared). */
  readonly onSubmit: (path: string) => Promise<boolean> | void;
  readonly ariaLabel: string;
  readonly submitLabel: string;
  readonly busyLabel: string;
  readonly hint: string;
  readonly inputTestId: string;
  readonly submitTestId: string;
}

/** A path field for a .gguf file: the way to name a model where there is no native file dialog. */
export function GgufPathForm(props: GgufPathFormProps) {
  const [path, setPath] = useState('');
  const inputId = useId();
  const hintId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (props.busy) return;
    if ((await props.onSubmit(path)) === true) setPath('');
  };
  return (
    <form className="path-form" onSubmit={(e) => void submit(e)} aria-label={props.ariaLabel}>
      <label htmlFor={inputId}>Path to a .gguf file</label>
      <div className="path-row">
        <input
          id={inputId}
          data-testid={props.inputTestId}
          type="text"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/home/you/models/model.gguf"
          spellCheck={false}
          autoComplete="off"
          aria-describedby={hintId}
        />
        <Button type="submit" variant="primary" data-testid={props.submitTestId} disabled={props.busy}>
          {props.busy ? props.busyLabel : props.submitLabel}
        </Button>
      </div>
      <p id={hintId} className="hint muted">
        {props.hint}
      </p>
    </form>
  );
}
