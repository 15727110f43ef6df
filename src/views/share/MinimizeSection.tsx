import { useEffect, useRef, useState } from 'react';
import type { MinimizeProgress, MinimizeReply, ShareRequest } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { threadRows, useStore } from '../../state/store.ts';
import { LinkField } from './LinkField.tsx';
import { type Candidate, type Found, predicateCandidates } from './predicates.ts';
import { readFound } from './read-found.ts';
import { type Built, built, downloadText, shareFileName } from './share-link.ts';

/** Predicate evaluations allowed per run (each is a full analysis of a candidate). */
const MAX_EVALUATIONS = 1000;

let nextToken = 1;

type Done = Extract<MinimizeReply, { ok: true }>;

type Run =
  | { phase: 'idle' }
  | { phase: 'running'; token: number; progress?: MinimizeProgress }
  | { phase: 'done'; token: number; reply: Done; value: Built; busy: boolean; redactKey: string }
  | { phase: 'error'; error: string };

function n(x: number): string {
  return x.toLocaleString('en-US');
}

function outcome(r: Done): string {
  const sizes = `${n(r.before.messages)} → ${n(r.after.messages)} messages, ${n(r.before.requests)} → ${n(r.after.requests)} requests`;
  if (r.status === 'cancelled') return `Cancelled after ${n(r.evaluations)} evaluations; best so far: ${sizes}.`;
  if (r.status === 'budget') return `Stopped at the ${n(r.evaluations)}-evaluation budget; best so far: ${sizes}.`;
  return `Minimized ${sizes} in ${n(r.evaluations)} evaluations.`;
}

type Props = {
  base: Omit<ShareRequest, 'redact'>;
  redact: { keepPaths: boolean } | null;
  fileName: string | undefined;
};

/** Minimize: pick what must stay true (from the current view), run ddmin in the engine with progress and
 *  Cancel, then share the smallest transcript that still shows it. */
export function MinimizeSection({ base, redact, fileName }: Props) {
  // What the view shows when the dialog opens. The open compaction's items and the re-fetches the view names are not
  // in the run's reply: they are read from the engine first — again when a run in flight at the opening lands (the
  // engine answers a message's tool results for its last run only). A chosen predicate stays chosen while offered.
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const [spec, setSpec] = useState('');
  const shownRun = useStore((s) => s.run.result?.runId);
  const current = useRef(0);
  useEffect(() => {
    const s = useStore.getState();
    let live = true;
    void readFound(s.view, threadRows(s), shownRun)
      .catch((): Found => ({}))
      .then((found) => {
        if (!live) return;
        const c = predicateCandidates(s.run.result, s.view, threadRows(s), found);
        setCandidates(c);
        // A minimize under way keeps the predicate it runs on shown.
        setSpec((was) => (current.current || c.some((x) => x.spec === was) ? was : (c[0]?.spec ?? '')));
      });
    return () => {
      live = false;
    };
  }, [shownRun]);
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const redactKey = redact ? `paths:${redact.keepPaths}` : 'plain';

  // Closing the dialog stops a run.
  useEffect(
    () => () => {
      if (current.current) void engine().cancelMinimize(current.current);
    },
    [],
  );

  // Redaction chosen after a run: share the same reproduction with it (no second run).
  const doneToken = run.phase === 'done' ? run.token : 0;
  const doneKey = run.phase === 'done' ? run.redactKey : redactKey;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-share when the redaction choice changes
  useEffect(() => {
    if (!doneToken || doneKey === redactKey) return;
    let live = true;
    setRun((r) => (r.phase === 'done' ? { ...r, busy: true } : r));
    void engine()
      .share({ ...base, redact, minimized: doneToken })
      .then((s) => {
        if (!live) return;
        setRun((r) =>
          r.phase !== 'done' || r.token !== doneToken
            ? r
            : s.ok
              ? { ...r, value: built(s), busy: false, redactKey }
              : { phase: 'error', error: s.error },
        );
      })
      .catch((e: unknown) => {
        if (live) setRun({ phase: 'error', error: e instanceof Error ? e.message : String(e) });
      });
    return () => {
      live = false;
    };
  }, [redactKey, doneToken, doneKey]);

  const start = () => {
    if (!spec) return;
    const token = nextToken++;
    current.current = token;
    setRun({ phase: 'running', token });
    const made = redactKey;
    const onProgress = (p: MinimizeProgress) => {
      if (current.current !== token) return;
      setRun((r) => (r.phase === 'running' && r.token === token ? { ...r, progress: p } : r));
    };
    engine()
      .minimize(
        token,
        { settings: base.settings, view: base.view, redact, predicate: spec, maxEvaluations: MAX_EVALUATIONS },
        onProgress,
      )
      .then((r) => {
        if (current.current !== token) return;
        current.current = 0;
        if (r.ok) setRun({ phase: 'done', token, reply: r, value: built(r), busy: false, redactKey: made });
        else if (!r.stale) setRun({ phase: 'error', error: r.error });
      })
      .catch((e: unknown) => {
        if (current.current !== token) return;
        current.current = 0;
        setRun({ phase: 'error', error: e instanceof Error ? e.message : String(e) });
      });
  };

  const cancel = () => {
    if (current.current) void engine().cancelMinimize(current.current);
  };

  const download = async () => {
    if (run.phase !== 'done') return;
    const text = await engine().shareFile({ ...base, redact, minimized: run.token });
    if (text !== null) downloadText(shareFileName(fileName, '-minimized'), text);
  };

  const running = run.phase === 'running';
  const p = running ? run.progress : undefined;
  return (
    <section className="sd-section" data-testid="minimize-section">
      <div className="sd-section-title">Minimize</div>
      <p className="muted sd-hint">
        The smallest transcript that still shows the problem (delta debugging in the background; each step is a full
        analysis).
      </p>
      {candidates === null ? (
        <div className="muted" data-testid="minimize-reading">
          Reading what this view shows…
        </div>
      ) : candidates.length === 0 ? (
        <div className="muted" data-testid="minimize-empty">
          Nothing to keep yet: select a pairing issue, a row with a tier badge, a request with a cache break or a
          re-fetched call, or open a compaction view that lost something, then open Share again.
        </div>
      ) : (
        <div className="sd-row">
          <label className="sd-predicate">
            <span className="muted">keep</span>
            <select
              data-testid="minimize-predicate"
              value={spec}
              disabled={running}
              onChange={(e) => setSpec(e.target.value)}
            >
              {candidates.map((c) => (
                <option key={c.spec} value={c.spec} title={c.spec}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" data-testid="minimize-button" disabled={running || !spec} onClick={start}>
            Minimize
          </button>
        </div>
      )}
      {running && (
        <div className="sd-row sd-progress" data-testid="minimize-running">
          <progress
            data-testid="minimize-progress"
            data-evaluations={p?.evaluations ?? 0}
            value={p && p.totalUnits > 1 ? (p.totalUnits - p.units) / (p.totalUnits - 1) : 0}
            max={1}
          />
          <span className="num muted">
            {p
              ? `evaluation ${n(p.evaluations)} · best so far ${n(p.messages)} messages (${n(p.units)} of ${n(p.totalUnits)} units)`
              : 'checking that it holds…'}
          </span>
          <button type="button" data-testid="minimize-cancel" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {run.phase === 'error' && (
        <div className="error-text" role="alert" data-testid="minimize-error">
          {run.error}
        </div>
      )}
      {run.phase === 'done' && (
        <div
          className="sd-result"
          data-testid="minimize-result"
          data-status={run.reply.status}
          data-messages={run.reply.after.messages}
          data-evaluations={run.reply.evaluations}
        >
          <div>
            <strong>{outcome(run.reply)}</strong>{' '}
            <span className="muted">
              Still shows: <span className="mono">{run.reply.witness.detail}</span>
            </span>
          </div>
          <LinkField id="minimize" value={run.value} busy={run.busy} onDownload={download} />
          {run.value.notes.map((note) => (
            <div key={note} className="sev-warning">
              ⚠ {note}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
