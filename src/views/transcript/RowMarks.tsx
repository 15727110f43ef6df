import type { Row } from '../../protocol/index.ts';
import { MARKS, type MarkId, resultMarks } from './marks.ts';
import type { RowNotes } from './row-notes.ts';

function Mark({ id, title, className }: { id: MarkId; title: string; className?: string }) {
  return (
    <span
      className={`mark mark-${id}${className ? ` ${className}` : ''}`}
      data-mark={id}
      data-testid={id === 'pairing' ? 'pairing-marker' : undefined}
      title={title}
    >
      {MARKS[id].glyph}
    </span>
  );
}

/** Glyphs for what happened to a message: spill, clear, summary, drop, errors, compaction, pairing. */
export function RowMarks({ row, notes }: { row: Row; notes: RowNotes | undefined }) {
  const marks: { id: MarkId; title: string; className?: string }[] = [];
  const seen = new Set<MarkId>();
  for (const r of notes?.results ?? [])
    for (const id of resultMarks(r)) {
      if (seen.has(id)) continue;
      seen.add(id);
      marks.push({ id, title: `${MARKS[id].label} (${r.tool} ${r.toolUseId})` });
    }
  if (row.isError) marks.push({ id: 'error', title: MARKS.error.label });
  if (row.compaction === 'summary') marks.push({ id: 'compaction', title: MARKS.compaction.label });
  const pairing = notes?.pairing ?? [];
  if (pairing.length > 0) {
    const errors = pairing.filter((v) => v.severity === 'error').length;
    marks.push({
      id: 'pairing',
      className: errors > 0 ? 'sev-error' : 'sev-warning',
      title: pairing.map((v) => `${v.severity} (${v.rule}, ${v.stage}, request ${v.request}): ${v.error}`).join('\n'),
    });
  }
  if (marks.length === 0) return null;
  return (
    <>
      {marks.map((m) => (
        <Mark key={m.id} {...m} />
      ))}
    </>
  );
}
