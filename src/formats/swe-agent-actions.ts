// SWE-agent steps whose action is written as text (models without function calling answer with a thought and the
// command in a fenced block) become tool calls, so tiers, re-fetches and spill apply to them: the assistant item
// gets a tool call named by the command (a documented SWE-agent command, else `bash`) with the command line as
// input, and the observation after it becomes its tool result. Rewritten items are listed so the parser can mark
// their messages `source.shape: 'text-action'` (the original item stays reachable through `source.path`).
import { arr, isObject, type JsonObject, str } from '../lib/json.ts';

/** SWE-agent's own tools (its tools/<bundle>/config.yaml files), for trajectories that do not document theirs. */
const SWE_AGENT_TOOLS = [
  'open',
  'goto',
  'create',
  'scroll_up',
  'scroll_down',
  'edit',
  'insert',
  'append',
  'find_file',
  'search_dir',
  'search_file',
  'filemap',
  'str_replace_editor',
  'submit',
  'exit_forfeit',
  'view_image',
];

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (arr(content) ?? []).map((p) => (isObject(p) ? (str(p.text) ?? '') : '')).join('\n');
}

/** Commands the trajectory documents in its system prompt (`name:\n  docstring: …`), plus SWE-agent's own. */
export function knownCommands(history: readonly unknown[]): Set<string> {
  const known = new Set(SWE_AGENT_TOOLS);
  const system = history.find((h) => isObject(h) && h.role === 'system');
  const prompt = isObject(system) ? textOf(system.content) : '';
  for (const m of prompt.matchAll(/^([A-Za-z_][\w-]*):\r?\n[ \t]+docstring:/gm)) known.add(m[1]);
  return known;
}

/** The tool a text action calls: its first word when that is a known command, else `bash` (a shell line). */
function toolOf(action: string, known: ReadonlySet<string>): string {
  const first = action.trim().split(/\s+/, 1)[0] ?? '';
  return known.has(first) ? first : 'bash';
}

const hasToolCalls = (item: JsonObject) => {
  const calls = item.tool_calls;
  if (calls === undefined || calls === null) return false;
  return !(Array.isArray(calls) && calls.length === 0) && calls !== '[]' && calls !== '';
};

/** An assistant item that acts through text: a non-blank `action` and no tool calls. */
function isTextAction(item: unknown): item is JsonObject {
  if (!isObject(item) || item.role !== 'assistant' || hasToolCalls(item)) return false;
  const action = str(item.action);
  return action !== undefined && action.trim() !== '';
}

export type Rewritten = { items: unknown[]; rewritten: Set<number> };

/**
 * The items with each text action rewritten as an OpenAI tool call (id `action-<i>`, input `{command}`; the text
 * is the item's `thought`, since `content` repeats the command) and the user item right after it as its tool
 * message. `rewritten` holds the indices of both.
 */
export function withTextActions(items: readonly unknown[], known: ReadonlySet<string>): Rewritten {
  const out = [...items];
  const rewritten = new Set<number>();
  items.forEach((item, i) => {
    if (!isTextAction(item)) return;
    const action = str(item.action) ?? '';
    const id = `action-${i}`;
    const call = { id, type: 'function', function: { name: toolOf(action, known), arguments: { command: action } } };
    out[i] = { ...item, content: str(item.thought) ?? item.content, tool_calls: [call] };
    rewritten.add(i);
    const next = items[i + 1];
    if (isObject(next) && next.role === 'user') {
      out[i + 1] = { ...next, role: 'tool', tool_call_id: id };
      rewritten.add(i + 1);
    }
  });
  return { items: out, rewritten };
}
