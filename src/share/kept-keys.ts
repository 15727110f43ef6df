// Which keys of a tool input a redacted share keeps: the parameter names of the tools the supported agents call (data,
// below) and the property names the transcript's own tool definitions declare. They are structure the pipeline and
// the reader use (file_path feeds the artifact ledger, re-fetch checks compare arguments); any other key of a tool
// input is content — a name, a card number, a note written as a key — and is filled.
import type { Transcript } from '../model/transcript.ts';

/** Parameters of the built-in tools of Claude Code, Codex, SWE-agent, mini-swe-agent and Inspect's tools. */
const PARAMETERS: ReadonlySet<string> = new Set([
  // Claude Code
  'command',
  'description',
  'timeout',
  'run_in_background',
  'file_path',
  'offset',
  'limit',
  'pattern',
  'path',
  'glob',
  'output_mode',
  'head_limit',
  'multiline',
  'type',
  '-i',
  '-n',
  '-A',
  '-B',
  '-C',
  'old_string',
  'new_string',
  'replace_all',
  'edits',
  'content',
  'url',
  'prompt',
  'query',
  'allowed_domains',
  'blocked_domains',
  'subagent_type',
  'todos',
  'status',
  'activeForm',
  'id',
  'priority',
  'notebook_path',
  'new_source',
  'cell_id',
  'cell_type',
  'edit_mode',
  'plan',
  'bash_id',
  'shell_id',
  'filter',
  'questions',
  'question',
  'options',
  'label',
  'skill',
  'args',
  // Codex
  'cmd',
  'workdir',
  'timeout_ms',
  'input',
  'explanation',
  'step',
  'justification',
  'with_escalated_permissions',
  'session_id',
  'chars',
  'max_output_tokens',
  'yield_time_ms',
  // SWE-agent, mini-swe-agent, Inspect
  'file_text',
  'old_str',
  'new_str',
  'insert_line',
  'view_range',
  'code',
  'action',
  'text',
  'answer',
  'name',
  'arguments',
]);

/** A key the supported agents' tools take as a parameter. */
export function isParameterName(key: string): boolean {
  return PARAMETERS.has(key);
}

/** Every property name declared in the transcript's tool definitions (nested `properties` too). */
export function schemaPropertyNames(t: Transcript): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [];
  for (const th of t.threads) {
    for (const d of th.prefix.tools ?? []) stack.push(d.inputSchema);
    for (const q of th.requests) for (const d of q.exactPrefix?.tools ?? []) stack.push(d.inputSchema);
  }
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      const props = o.properties;
      if (typeof props === 'object' && props !== null && !Array.isArray(props))
        for (const k of Object.keys(props)) out.add(k);
      for (const x of Object.values(o)) stack.push(x);
    }
  }
  return out;
}
