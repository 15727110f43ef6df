import type { ReactNode } from 'react';

/** One figure of the summary bar: a small label, then the value (tabular numbers). */
export function Stat({
  label,
  title,
  tone,
  className,
  children,
}: {
  label: string;
  title?: string;
  tone?: 'good' | 'bad' | 'warn' | 'muted';
  className?: string;
  children: ReactNode;
}) {
  return (
    <span className={['stat', tone ? `tone-${tone}` : '', className ?? ''].filter(Boolean).join(' ')} title={title}>
      <span className="stat-label">{label}</span>
      <span className="stat-value num">{children}</span>
    </span>
  );
}
