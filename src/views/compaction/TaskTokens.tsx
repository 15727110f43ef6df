import { useState } from 'react';
import type { PresetTaskTable, TaskRow } from '../../protocol/index.ts';
import { fmtUsd, PRESETS } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { fmtTokens } from '../common/format.ts';

const usd = (x: number | null) => (x === null ? '—' : fmtUsd(x));

/** Tokens per task of the compaction's thread (the recording and this run), and the presets compared per task. */
export function TaskTokens({ tasks, thread, around }: { tasks: TaskRow[]; thread: string; around: number | null }) {
  const mine = tasks.filter((t) => t.thread === thread);
  const [table, setTable] = useState<PresetTaskTable | 'loading' | { error: string } | null>(null);
  const compare = async () => {
    setTable('loading');
    try {
      const t = await engine().presetTasks();
      setTable(t ?? { error: 'nothing loaded' });
    } catch (e) {
      setTable({ error: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <section className="cv-section" data-testid="task-tokens">
      <div className="cv-section-title">
        Tokens per task <span className="muted">· a task is a typed request up to the next one</span>
      </div>
      <table className="cv-table">
        <thead>
          <tr>
            <th>requests</th>
            <th>task</th>
            <th className="num" title="observed prompt + output of its requests">
              recorded tokens
            </th>
            <th className="num" title="results fetched again after the agent's compactions (counted)">
              of which re-fetch
            </th>
            <th className="num">recorded USD</th>
            <th className="num" title="this run: the pipeline's calibrated estimate + observed output">
              ≈ this run
            </th>
            <th className="num" title="after the agent's compactions or this run's lossy rewrites">
              ≈ re-fetch
            </th>
          </tr>
        </thead>
        <tbody>
          {mine.map((t) => (
            <tr
              key={t.firstRequest}
              data-testid="task-row"
              className={around !== null && around >= t.firstRequest && around <= t.lastRequest ? 'cv-here' : ''}
            >
              <td className="num">
                {t.firstRequest}–{t.lastRequest}
              </td>
              <td className="cv-args" title={t.instruction}>
                {t.instruction}
              </td>
              <td className="num">{t.recorded.tokens === null ? 'no usage' : fmtTokens(t.recorded.tokens)}</td>
              <td className="num">{t.recorded.refetchTokens > 0 ? fmtTokens(t.recorded.refetchTokens) : '—'}</td>
              <td className="num">{usd(t.recorded.usd)}</td>
              <td className="num">≈ {fmtTokens(t.tokens)}</td>
              <td className="num">{t.refetchTokens > 0 ? fmtTokens(t.refetchTokens) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="cv-compare">
        {table === null && (
          <button type="button" data-testid="compare-presets" onClick={compare}>
            Compare presets per task
          </button>
        )}
        {table === 'loading' && <span className="muted">Replaying every preset…</span>}
        {table !== null && table !== 'loading' && 'error' in table && (
          <span className="error-text" role="alert">
            {table.error}
          </span>
        )}
        {table !== null && table !== 'loading' && 'rows' in table && (
          <table className="cv-table" data-testid="preset-tasks">
            <thead>
              <tr>
                <th>preset</th>
                <th className="num">tasks</th>
                <th className="num">tokens per task</th>
                <th className="num">without re-fetches</th>
                <th className="num">re-fetch tokens</th>
                <th className="num">USD</th>
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={r.preset} data-testid="preset-task-row" data-preset={r.preset}>
                  <td title={r.preset}>
                    {PRESETS.find((p) => p.id === r.preset)?.title ?? r.preset}
                    <span className="muted"> · {r.basis}</span>
                  </td>
                  <td className="num">{r.tasks}</td>
                  <td className="num">
                    {r.basis === 'estimated' ? '≈ ' : ''}
                    {fmtTokens(r.tokensPerTask)}
                  </td>
                  <td className="num">
                    {r.basis === 'estimated' ? '≈ ' : ''}
                    {fmtTokens(r.tokensPerTaskWithoutRefetch)}
                  </td>
                  <td className="num">{fmtTokens(r.refetchTokens)}</td>
                  <td className="num">
                    {r.basis === 'estimated' && r.usd !== null ? '≈ ' : ''}
                    {usd(r.usd)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {table !== null && table !== 'loading' && 'rows' in table && (
          <p className="muted cv-note">
            Every preset replayed with this run's window, cache rules, prices, mode and provider; summaries by the{' '}
            {table.summarizer} summarizer. Re-fetch tokens: results the recorded agent fetched again after its own
            compactions or after the preset had lost them.
          </p>
        )}
      </div>
    </section>
  );
}
