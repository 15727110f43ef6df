import { openFiles } from './open-files.ts';

/** What Open… accepts: every input the engine reads (gzip undone), named as the README names them. */
const OPEN_ACCEPT = '.jsonl,.json,.gz,.eval,.traj,.zip,.txt,.log,.db,.db-wal,application/json,application/gzip';

/** "Open…": one log (a Claude Code 2.0 session may come with the agent-*.jsonl files beside it). A 2.1 session's
 *  sub-agents sit in another folder, which a file picker cannot reach: Open folder… (or a dropped folder) does. */
export function FileInput() {
  return (
    <label
      className="file-button"
      title={
        'Open a session log: .jsonl, .json, .tierscope.json, .eval, .traj, or any of them gzipped (.gz); an opencode ' +
        'database (.db).\n' +
        'A Claude Code session with sub-agents (in <session>/subagents/): use Open folder… on its project ' +
        'folder (or drop that folder) and pick the session — its sub-agents come with it.'
      }
    >
      Open…
      <input
        data-testid="file-input"
        type="file"
        multiple
        accept={OPEN_ACCEPT}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void openFiles(files);
        }}
      />
    </label>
  );
}
