// Where the agents of issue 31 keep their sessions under $HOME, as rows of the CLI's table of session homes
// (`tierscope` with no arguments serves the ones found; one row per folder: its path under $HOME, the label printed
// for it, the format it holds — a hint, each file's own format is read). Each row's layout is one the scan reads
// (layout.ts, companions.ts): Gemini CLI's tmp/<project hash or slug>/chats/, opencode's data folder (its
// opencode.db with the -wal beside it; the legacy storage/ JSON files are skipped), Cline's and Roo Code's VS Code
// task folders (Linux and macOS), Cline 4's sessions.
export type AgentHome = { path: string; label: string; format: string };

const VSCODE = ['.config/Code/User/globalStorage', 'Library/Application Support/Code/User/globalStorage'];

export const AGENT_HOMES: readonly AgentHome[] = [
  { path: '.gemini/tmp', label: 'Gemini CLI', format: 'gemini-cli' },
  { path: '.local/share/opencode', label: 'opencode', format: 'opencode' },
  { path: '.cline/data/sessions', label: 'Cline', format: 'cline' },
  ...VSCODE.map((dir) => ({ path: `${dir}/saoudrizwan.claude-dev/tasks`, label: 'Cline (VS Code)', format: 'cline' })),
  ...VSCODE.map((dir) => ({ path: `${dir}/rooveterinaryinc.roo-cline/tasks`, label: 'Roo Code', format: 'cline' })),
];
