import { openFiles } from './open-files.ts';

/** "Open…": one file, or a Claude Code session together with its sub-agent files. */
export function FileInput() {
  return (
    <label
      className="file-button"
      title="Open a transcript. For a Claude Code session, pick its sub-agent files (agent-*.jsonl) too."
    >
      Open…
      <input
        data-testid="file-input"
        type="file"
        multiple
        accept=".jsonl,.json,.traj,.eval,.zip,.txt,.log,.db,.db-wal,application/json"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void openFiles(files);
        }}
      />
    </label>
  );
}
