import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { ParseIssues } from './ParseIssues.tsx';

const FORMATS: [string, string][] = [
  ['Claude Code', 'session .jsonl from ~/.claude/projects (pick its agent-*.jsonl files too)'],
  ['claude-trace', '.claude-trace/log-*.jsonl request/response pairs'],
  ['Anthropic requests', 'logged Messages API request bodies, JSON or JSONL'],
  ['OpenAI chat', 'chat-completions request/response logs'],
  ['Codex', 'rollout-*.jsonl from ~/.codex/sessions'],
  ['Inspect', 'eval logs: .eval (zip, the default) or .json'],
  ['SWE-agent', '.traj trajectories and demonstrations (function calling or text actions)'],
  ['Tierscope', 'bundles exported from this app'],
];

/** Why the last load failed, in full, with what Tierscope can read instead. */
export function LoadError() {
  const { error, issues, source } = useStore(
    useShallow((s) => ({ error: s.transcript.error, issues: s.transcript.issues, source: s.transcript.source })),
  );
  return (
    <div className="load-error-panel" data-testid="load-error">
      <div className="dialog-title">Could not load {source?.name ?? 'this file'}</div>
      <p className="error-text">{error}</p>
      <ParseIssues issues={issues} open />
      <div className="sub-title">Tierscope reads</div>
      <dl className="formats">
        {FORMATS.map(([name, what]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd className="muted">{what}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">Open or drop another file, paste JSON, or pick a sample from the header.</p>
    </div>
  );
}
