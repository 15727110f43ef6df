import type { ReactNode } from 'react';

/** One figure of the summary bar: a small label, then the value (tabular numbers). */
export function Stat({
  label,
  title,
  tone,
  children,
}: {
  label: string;
  title?: string;
  tone?: 'good' | 'bad' | 'warn' | 'muted';
  children: ReactNode;
}) {
  return (
    <span className={tone ? `stat tone-${tone}` : 'stat'} title={title}>
      <span className="stat-label">{label}</span>
      <span className="stat-value num">{children}</span>
    </span>
  );
}
