import { useShallow } from 'zustand/react/shallow';
import { formatBytes, type LoadProgress } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { useLoadOrder } from '../../state/load-order.ts';
import { useStore } from '../../state/store.ts';
import { visibleText } from '../common/visible-text.ts';
import { ParseIssues } from './ParseIssues.tsx';

const PHASES: Record<LoadProgress['phase'], string> = {
  reading: 'Reading',
  parsing: 'Parsing',
  counting: 'Counting tokens',
  replaying: 'Replaying',
};

const FORMATS =
  'Claude Code JSONL (with sub-agent files), claude-trace, Anthropic request logs, OpenAI chat, Codex rollouts, Inspect eval logs, SWE-agent trajectories and Tierscope bundles';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** What is loaded (format and counts), the progress of a load, or why it failed. */
export function LoadStatus() {
  const { status, summary, error, issues, progress, source } = useStore(
    useShallow((s) => ({
      status: s.transcript.status,
      summary: s.transcript.summary,
      error: s.transcript.error,
      issues: s.transcript.issues,
      progress: s.transcript.progress,
      source: s.transcript.source,
    })),
  );
  // Loads not settled yet, overtaken ones included (a test waits for 0 before asserting what is shown).
  const inFlight = useLoadOrder((s) => s.inFlight);
  const skipped = summary ? Object.entries(summary.skipped) : [];
  return (
    <div data-testid="load-status" className="load-status" data-status={status} data-loads={inFlight}>
      {status === 'loading' && (
        <span className="loading">
          <span className="muted">{PHASES[progress?.phase ?? 'reading'] ?? 'Loading'}</span>{' '}
          <span className="file-name">{source?.name}</span>
          <progress data-testid="load-progress" value={progress?.fraction ?? 0} max={1} />
          <span className="num muted">{Math.round((progress?.fraction ?? 0) * 100)}%</span>
          <button
            type="button"
            className="link"
            data-testid="load-cancel"
            title="Stop this load; what was on screen stays"
            onClick={() => void engine().cancelLoad()}
          >
            Cancel
          </button>
        </span>
      )}
      {status === 'error' && (
        <span className="load-error" role="alert" title={error}>
          <span className="error-text">{error}</span>
          <span className="muted"> · reads {FORMATS}</span>
        </span>
      )}
      {status !== 'loading' && status !== 'error' && summary && (
        <span className="loaded" title={`${formatBytes(summary.bytes)} read in ${Math.round(summary.loadMs)} ms`}>
          {summary.title && summary.title !== summary.fileName && (
            <span className="doc-title" data-testid="session-title" title={summary.title}>
              {visibleText(summary.title)}
            </span>
          )}
          <span className={summary.title ? 'file-name file-name-second' : 'file-name'} title={summary.fileName}>
            {visibleText(summary.fileName)}
          </span>
          <span className="sep">·</span>
          <span className="format" data-testid="load-format">
            {summary.format}
            {summary.version ? ` ${summary.version}` : ''}
          </span>
          <span className="sep">·</span>
          <span className="num counts" title={plural(summary.counts.toolResults, 'tool result')}>
            {plural(summary.counts.threads, 'thread')} · {plural(summary.counts.messages, 'message')} ·{' '}
            {plural(summary.counts.requests, 'request')} · {plural(summary.counts.toolUses, 'tool use')}
          </span>
          {summary.forkOf && (
            <span
              className="muted"
              data-testid="fork-of"
              title="This rollout replays its parent's history before its own turns; that part is context here, billed in the parent"
            >
              {' '}
              · a fork of {visibleText(summary.forkOf.slice(0, 8))}…
            </span>
          )}
          {summary.assumedModel && (
            <span className="warn-text" data-testid="assumed-model" title={summary.assumedModel.why}>
              {' '}
              · model assumed: {visibleText(summary.assumedModel.model)}
            </span>
          )}
          {skipped.length > 0 && (
            <span
              className="muted skipped"
              title={`Lines seen but not modelled:\n${skipped
                .map(
                  ([k, n]) => `${k} ×${n}${Object.hasOwn(summary.skippedWhy, k) ? ` — ${summary.skippedWhy[k]}` : ''}`,
                )
                .join('\n')}`}
            >
              {' '}
              · {skipped.reduce((n, [, k]) => n + k, 0)} skipped
            </span>
          )}
        </span>
      )}
      {status === 'ready' && progress && (
        <span
          className="counting"
          title={progress.detail ?? 'exact token counts are being computed; rows show estimates'}
        >
          <progress data-testid="load-progress" value={progress.fraction} max={1} />
          <span className="num muted">
            {PHASES[progress.phase] ?? progress.phase} {Math.round(progress.fraction * 100)}%
          </span>
        </span>
      )}
      {status === 'idle' && !summary && <span className="muted">Drop a transcript anywhere, or open one…</span>}
      {status === 'ready' && <ParseIssues issues={issues} />}
    </div>
  );
}
