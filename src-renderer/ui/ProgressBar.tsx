export interface ProgressBarProps {
  /** 0..1 */
  value: number;
  label: string;
  testId?: string;
}

/** A native <progress> (no inline styles, so it works under the strict CSP) with its percentage beside it. */
export function ProgressBar({ value, label, testId }: ProgressBarProps) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="progress" data-testid={testId}>
      <progress max={100} value={percent} aria-label={label}>
        {`${percent}%`}
      </progress>
      <span className="progress-percent" aria-hidden="true">
        {`${percent}%`}
      </span>
    </div>
  );
}
