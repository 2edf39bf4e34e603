/** The optional reason for a denial, which the model is told; Enter denies with it. */
export function DenyReasonField({
  label,
  value,
  onChange,
  onDeny,
  className,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onDeny: () => void;
  className: string;
  testId: string;
}) {
  return (
    <label className={className}>
      <span>{label}</span>
      <input
        type="text"
        data-testid={testId}
        value={value}
        maxLength={2000}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onDeny();
          }
        }}
      />
    </label>
  );
}
