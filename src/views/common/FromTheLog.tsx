import type { DefaultNote } from './log-default-note.ts';

type Props = {
  note: DefaultNote | null;
  testId: string;
  /** Back to the log's value (shown on an override only). */
  onReset?: () => void;
  resetTestId?: string;
};

/** Where a default came from ("from the log · gpt-4o"), or that the value overrides the log's (with a reset). */
export function FromTheLog({ note, testId, onReset, resetTestId }: Props) {
  if (!note) return null;
  return (
    <span
      className={note.overridden ? 'from-log from-log-override' : 'from-log'}
      data-testid={testId}
      data-source={note.source}
      data-overridden={String(note.overridden)}
      title={note.title}
    >
      {note.text}
      {note.overridden && onReset && (
        <button type="button" data-testid={resetTestId} title="Back to the log's value" onClick={onReset}>
          ↺
        </button>
      )}
    </span>
  );
}
