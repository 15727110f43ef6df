// Tool-name matching on the raw name and a canonical alias (SPEC §4): Claude Code `Read→file_read`,
// Codex `shell→bash`, MCP browser tools → `browser_X`, … The table is data so the UI can show it.
// Patterns may end in `*` (prefix match), e.g. `browser_*`.

export const ALIASES: Readonly<Record<string, string>> = {
  Read: 'file_read',
  Grep: 'grep',
  Glob: 'glob',
  LS: 'directory_list',
  Bash: 'bash',
  Edit: 'file_edit',
  MultiEdit: 'file_edit',
  Write: 'file_write',
  NotebookEdit: 'file_edit',
  shell: 'bash',
  exec_command: 'bash',
  local_shell: 'bash',
  apply_patch: 'file_edit',
  read_file: 'file_read',
  str_replace_editor: 'file_edit',
};

const MCP = /^mcp__[^_].*?__(.+)$/;

/** `table[key]` for own keys only: a tool named `constructor` or `toString` is not a table entry. */
function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Canonical alias of a tool name (the name itself when it has none). */
export function canonicalTool(name: string): string {
  const direct = own(ALIASES, name);
  if (direct) return direct;
  const m = MCP.exec(name);
  if (m) {
    const inner = m[1];
    if (inner.startsWith('browser_')) return inner;
    return own(ALIASES, inner) ?? inner;
  }
  return name;
}

function matchOne(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** True when the raw name or its canonical alias matches any pattern. */
function toolMatches(patterns: readonly string[], name: string): boolean {
  if (patterns.length === 0) return false;
  const canon = canonicalTool(name);
  return patterns.some((p) => matchOne(p, name) || matchOne(p, canon));
}

/** toolMatches, remembered per pattern list and name for a run (PipelineMemo): the stages ask it per result on
 *  every request. Assumes a config's pattern lists are not mutated. Bound: the lists tried × the tool names. */
export class ToolMatcher {
  private readonly byList = new WeakMap<readonly string[], Map<string, boolean>>();

  matches(patterns: readonly string[], name: string): boolean {
    if (patterns.length === 0) return false;
    let byName = this.byList.get(patterns);
    if (!byName) {
      byName = new Map();
      this.byList.set(patterns, byName);
    }
    let v = byName.get(name);
    if (v === undefined) {
      v = toolMatches(patterns, name);
      byName.set(name, v);
    }
    return v;
  }
}

/** The declared result cap of a tool (runes), by raw name or alias; undefined when none. */
export function toolCap(caps: Readonly<Record<string, number>>, name: string): number | undefined {
  return own(caps, name) ?? own(caps, canonicalTool(name));
}
