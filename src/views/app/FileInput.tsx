import { useStore } from '../../state/store.ts';
import { orderFiles } from './order-files.ts';

/** "Open…": one file, or a Claude Code session together with its sub-agent files. */
export function FileInput() {
  const loadFiles = useStore((s) => s.transcriptActions.loadFiles);
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
        accept=".jsonl,.json,.traj,.eval,.zip,.txt,.log,application/json"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void loadFiles(orderFiles(files));
        }}
      />
    </label>
  );
}
