import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { CompactionDetail, CompactionRow, Probes } from '../../protocol/index.ts';
import { PROBE_KINDS } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { useStore } from '../../state/store.ts';
import { closeCompaction, pushNextView } from '../../state/view-history.ts';
import { fmtTokens } from '../common/format.ts';
import { ModelProbes } from './ModelProbes.tsx';
import { ProbeList } from './ProbeList.tsx';
import { RefetchesAfter } from './RefetchesAfter.tsx';
import { TaskTokens } from './TaskTokens.tsx';
import './compaction.css';

function totals(p: Probes): { kept: number; lost: number } {
  let kept = 0;
  let lost = 0;
  for (const k of PROBE_KINDS) {
    kept += p[k].kept.length;
    lost += p[k].lost.length;
  }
  return { kept, lost };
}

const BASIS: Record<string, string> = {
  recorded: 'recorded by the agent',
  'observed-prompt': 'observed prompt of the last request before it',
  counted: 'counted before the summarize stage',
};

function title(row: CompactionRow): string {
  const who = row.source === 'agent' ? 'The agent’s compaction' : 'Tierscope’s summarize stage';
  const trig = row.trigger ? ` (${row.trigger})` : '';
  const at = row.request === null ? 'no request followed it' : `request ${row.request}`;
  return `${who}${trig} · ${at} · thread ${row.thread}`;
}

/** Where the page's header ends: the view opens below it, so Share and the rest of the header stay usable. */
function useHeaderBottom(): number {
  const [top, setTop] = useState(48);
  useLayoutEffect(() => {
    const measure = () => setTop(Math.ceil(document.querySelector('.header')?.getBoundingClientRect().bottom ?? 48));
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  return top;
}

/** The compaction view (SPEC §6): a compaction's summary beside Tierscope's anchored summary of the same span,
 *  what each kept and lost against the span's ledger, the re-fetches that followed, and tokens per task. It is a
 *  view like any other (in the URL and history, with its focused probe item), not a modal: the header above it
 *  stays live, so Share (`s`) shares it as it is. */
export function CompactionView({ id }: { id: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const tasks = useStore((s) => s.run.result?.tasks);
  const result = useStore((s) => s.run.result);
  const [detail, setDetail] = useState<CompactionDetail | null | 'loading'>('loading');
  const top = useHeaderBottom();

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.show();
  }, []);
  // The compaction of the run on screen: fetched again when a run replaces it (a link or reload opens the view
  // before its first run is done).
  useEffect(() => {
    let live = true;
    if (!result) {
      setDetail('loading');
      return;
    }
    engine()
      .compaction(id)
      .then((x) => live && setDetail(x))
      .catch(() => live && setDetail(null));
    return () => {
      live = false;
    };
  }, [id, result]);

  const row = detail !== null && detail !== 'loading' ? detail.row : undefined;
  // Back from the message returns here (with the item focused).
  const goTo = (messageIndex: number) => {
    if (!row) return;
    const st = useStore.getState();
    pushNextView();
    useStore.setState((s) => ({
      view: { ...s.view, compaction: null, probe: null, range: s.view.thread === row.thread ? s.view.range : null },
    }));
    if (st.view.thread !== row.thread) st.viewActions.setThread(row.thread);
    st.viewActions.selectMessage(messageIndex, true);
  };

  return (
    <>
      <div className="cv-scrim" style={{ top }} aria-hidden="true" onClick={closeCompaction} />
      <dialog
        ref={ref}
        className="compaction-view"
        style={{ top: top + 8, maxHeight: `calc(100vh - ${top + 16}px)` }}
        data-testid="compaction-view"
        data-compaction={id}
        aria-labelledby="cv-title"
      >
        <div className="cv-head">
          <div className="dialog-title" id="cv-title">
            {row ? title(row) : 'Compaction'}
          </div>
          <span className="cv-head-actions">
            <span className="muted cv-keys">
              <kbd>j</kbd>/<kbd>k</kbd> items · <kbd>Enter</kbd> its message · <kbd>s</kbd> share
            </span>
            <button type="button" className="icon" aria-label="Close" title="Close (Esc)" onClick={closeCompaction}>
              ×
            </button>
          </span>
        </div>
        {detail === 'loading' && <p className="muted">Reading the compaction…</p>}
        {detail === null && (
          <p className="error-text" role="alert" data-testid="compaction-missing">
            This compaction ({id}) is not in the last run (the settings changed, or the link names one this transcript
            does not have): close and pick a marker on the timeline.
          </p>
        )}
        {row && detail !== null && detail !== 'loading' && (
          <>
            <p className="cv-facts num" data-testid="compaction-facts">
              Folded messages {row.span.from}–{row.span.to - 1} (requests {row.span.firstRequest}–{row.span.lastRequest}
              ){' · '}
              {row.preTokens === null
                ? 'context before: unknown'
                : `context before ${row.preTokens.toLocaleString('en-US')} tokens (${BASIS[row.preTokensBasis ?? ''] ?? 'unknown basis'})`}
              {' · '}summary {row.summaryTokens.toLocaleString('en-US')} tokens (counted) · anchored summary of the same
              span {row.anchoredTokens.toLocaleString('en-US')} tokens (counted)
            </p>
            {row.opaque && (
              <p className="cv-note" data-testid="compaction-opaque">
                The agent’s summary has no readable text (encrypted by a remote compaction, or empty in the log): what
                it kept is unknown — not lost. Tierscope’s anchored summary of the same span is probed beside it.
              </p>
            )}
            <p className="muted cv-note">
              Probes are exact: an item counts as kept when the summary names it verbatim or normalized (case, quotes, a
              path by its last segments, ~ for the home directory); everything else is lost. Click m<i>N</i> to see
              where an item came from.
            </p>
            <div className="cv-columns">
              <SummaryColumn
                side="summary"
                heading={row.source === 'agent' ? 'The agent’s summary' : 'The pipeline’s summary'}
                tokens={row.summaryTokens}
                probes={row.probes}
                text={detail.summary}
                onGo={goTo}
                unknown={row.opaque ? row.anchoredProbes : undefined}
              />
              <SummaryColumn
                side="anchored"
                heading="Tierscope’s anchored summary of the same span"
                tokens={row.anchoredTokens}
                probes={row.anchoredProbes}
                text={detail.anchored}
                onGo={goTo}
              />
            </div>
            {detail.clipped && (
              <p className="muted cv-note">A summary is clipped in the viewer; the probes read it whole.</p>
            )}
            <RefetchesAfter row={row} onGo={goTo} />
            <ModelProbes id={row.id} summaryTokens={row.summaryTokens} />
            <TaskTokens tasks={tasks ?? []} thread={row.thread} around={row.request} />
          </>
        )}
      </dialog>
    </>
  );
}

type ColumnProps = {
  side: 'summary' | 'anchored';
  heading: string;
  tokens: number;
  probes: Probes;
  text: string;
  onGo: (messageIndex: number) => void;
  /** The agent's summary has no readable text: the span's items (ProbeList), kept or lost unknown. */
  unknown?: Probes;
};

function SummaryColumn({ side, heading, tokens, probes, text, onGo, unknown }: ColumnProps) {
  const t = totals(probes);
  return (
    <section className="cv-column" data-testid={`compaction-${side}`}>
      <div className="cv-section-title">
        {heading}{' '}
        <span className="num muted">
          · {fmtTokens(tokens)} tokens ·{' '}
          {unknown ? (
            'kept and lost unknown (no readable text)'
          ) : (
            <>
              kept {t.kept}
              {t.lost > 0 ? <span className="cv-lost-count"> · lost {t.lost}</span> : ' · lost 0'}
            </>
          )}
        </span>
      </div>
      <ProbeList probes={probes} side={side} onGo={onGo} unknown={unknown} />
      <details className="cv-text-box">
        <summary>Full text</summary>
        <pre className="mono" data-testid={`compaction-${side}-text`}>
          {text}
        </pre>
      </details>
    </section>
  );
}
