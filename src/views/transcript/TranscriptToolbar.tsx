import { useShallow } from 'zustand/react/shallow';
import { threadRows, useStore } from '../../state/store.ts';
import { jumpMatch } from './navigation.ts';
import { matchesOf } from './search.ts';
import { useTranscriptUi } from './transcript-ui.ts';

export const SEARCH_ID = 'transcript-search';

/** The thread's name, search (highlight or filter) and the match count. */
export function TranscriptToolbar() {
  const { rows, search, selected, title } = useStore(
    useShallow((s) => ({
      rows: threadRows(s),
      search: s.view.search,
      selected: s.view.message,
      title: s.transcript.summary?.threads.find((t) => t.id === s.view.thread)?.title ?? s.view.thread,
    })),
  );
  const setSearch = useStore((s) => s.viewActions.setSearch);
  const filter = useTranscriptUi((s) => s.filter);
  const setFilter = useTranscriptUi((s) => s.setFilter);
  const q = search.trim();
  const matches = rows && q ? matchesOf(rows, search) : null;
  const pos = matches && selected !== null ? matches.indexOf(selected) : -1;
  return (
    <div className="transcript-toolbar">
      <span className="thread-title" title={title}>
        {title}
      </span>
      <input
        id={SEARCH_ID}
        data-testid="transcript-search"
        type="search"
        placeholder="Search  /"
        value={search}
        spellCheck={false}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            jumpMatch(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            if (search) setSearch('');
            else e.currentTarget.blur();
          }
        }}
      />
      {matches && (
        <span className="num match-count" data-testid="search-count">
          {pos >= 0 ? `${pos + 1}/` : ''}
          {matches.length} match{matches.length === 1 ? '' : 'es'}
        </span>
      )}
      <label className="check" title="Show only matching rows">
        <input
          type="checkbox"
          data-testid="search-filter"
          aria-label="Show only matching rows"
          checked={filter}
          onChange={(e) => setFilter(e.target.checked)}
        />{' '}
        filter
      </label>
    </div>
  );
}
