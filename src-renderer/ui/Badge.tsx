import type { ReactNode } from 'react';

export function Badge({
  tone,
  children,
  testId,
}: {
  tone: 'warning' | 'neutral';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <span className={`badge badge-${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}
