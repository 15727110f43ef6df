import { useStore } from '../../state/store.ts';

export function ThreadList() {
  const threads = useStore((s) => s.transcript.summary?.threads);
  const current = useStore((s) => s.view.thread);
  const setThread = useStore((s) => s.viewActions.setThread);
  return (
    <nav className="thread-list">
      <div className="panel-title">Threads</div>
      {threads?.map((t) => (
        <button type="button" key={t.id} aria-pressed={t.id === current} onClick={() => setThread(t.id)}>
          {t.title ?? t.id} · {t.messages}
        </button>
      ))}
    </nav>
  );
}
