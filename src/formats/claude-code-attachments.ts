// What Claude Code sends to the model for an `attachment` line (2.1.x logs them; earlier versions sent the same
// reminders without logging them). Evidence: `normalizeAttachmentForAPI` in Claude Code 2.1.114 (the JS inside
// the published @anthropic-ai/claude-code-linux-x64@2.1.114 binary, read 2026-12-01; 2.1.17's cli.js has the
// same texts for the older types). Each sent attachment is a meta user message wrapped in <system-reminder>;
// types that function maps to nothing (hook output of tool hooks, permissions, progress) never reach the model.
import { arr, isObject, type JsonObject, obj, str } from '../lib/json.ts';

export type RenderedAttachment =
  | { sent: true; text: string }
  | { sent: false; reason: 'not sent' | 'not reconstructed' | 'unknown type' };

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;
const texts = (v: unknown): string[] => (arr(v) ?? []).map((x) => (typeof x === 'string' ? x : ''));

/** Types normalizeAttachmentForAPI maps to no message (2.1.114; `todo` since 2.1.x, replaced by reminders). */
const NOT_SENT = new Set([
  'dynamic_skill',
  'already_read_file',
  'command_permissions',
  'edited_image_file',
  'hook_cancelled',
  'hook_error_during_execution',
  'hook_non_blocking_error',
  'hook_system_message',
  'hook_permission_decision',
  'hook_deferred_tool',
  'structured_output',
  'max_turns_reached',
  'current_session_memory',
  'teammate_shutdown_batch',
  'autocheckpointing',
  'background_task_status',
  'todo',
  'task_progress',
  'ultramemory',
  'compaction_reminder',
  'companion_intro',
  'pen_mode_enter',
  'pen_mode_exit',
  'context_efficiency',
]);

/** Sent, but with long mode-dependent texts Tierscope does not rebuild (their tokens are not counted). */
const NOT_RECONSTRUCTED = new Set(['plan_mode', 'auto_mode', 'diagnostics', 'relevant_memories', 'mcp_resource']);

/** A type's text; undefined when Claude Code maps this attachment to no message (empty, or a hook event it drops). */
type Render = (a: JsonObject) => string | undefined;

const TASK_REMINDER =
  "The task tools haven't been used recently. If you're working on tasks that would benefit from tracking progress, consider using TaskCreate to add new tasks and TaskUpdate to update task status (set to in_progress when starting, completed when done). Also consider cleaning up the task list if it has become stale. Only use these if relevant to the current work. This is just a gentle reminder - ignore if not applicable. Make sure that you NEVER mention this reminder to the user\n";
const TODO_REMINDER =
  "The TodoWrite tool hasn't been used recently. If you're working on tasks that would benefit from tracking progress, consider using the TodoWrite tool to track progress. Also consider cleaning up the todo list if has become stale and no longer matches what you are working on. Only use it if it's relevant to the current work. This is just a gentle reminder - ignore if not applicable. Make sure that you NEVER mention this reminder to the user\n";
const DEFERRED =
  'The following deferred tools are now available via ToolSearch. Their schemas are NOT loaded \u2014 calling them directly will fail with InputValidationError. Use ToolSearch with query "select:<name>[,<name>...]" to load tool schemas before calling them:\n';

/** Each sent type's text (before the <system-reminder> wrapper), as Claude Code 2.1.114 writes it. */
const RENDER: Record<string, Render> = {
  hook_success: (a) =>
    (a.hookEvent === 'SessionStart' || a.hookEvent === 'UserPromptSubmit') && str(a.content)
      ? `${str(a.hookName)} hook success: ${str(a.content)}`
      : undefined,
  hook_additional_context: (a) => {
    const lines = texts(a.content);
    return lines.length > 0 ? `${str(a.hookName)} hook additional context: ${lines.join('\n')}` : undefined;
  },
  hook_stopped_continuation: (a) => `${str(a.hookName)} hook stopped continuation: ${str(a.message) ?? ''}`,
  hook_blocking_error: (a) => {
    const e = obj(a.blockingError);
    return `${str(a.hookName)} hook blocking error from command: "${str(e?.command) ?? ''}": ${str(e?.blockingError) ?? ''}`;
  },
  deferred_tools_delta: (a) => {
    const parts: string[] = [];
    const added = texts(a.addedLines);
    const removed = texts(a.removedNames);
    if (added.length > 0) parts.push(`${DEFERRED}${added.join('\n')}`);
    if (removed.length > 0)
      parts.push(
        `The following deferred tools are no longer available (their MCP server disconnected). Do not search for them \u2014 ToolSearch will return no match:\n${removed.join('\n')}`,
      );
    return parts.length > 0 ? parts.join('\n\n') : undefined;
  },
  agent_listing_delta: (a) => {
    const parts: string[] = [];
    const added = texts(a.addedLines);
    const removed = texts(a.removedTypes);
    const head = a.isInitial
      ? 'Available agent types for the Agent tool:'
      : 'New agent types are now available for the Agent tool:';
    if (added.length > 0) parts.push(`${head}\n${added.join('\n')}`);
    if (removed.length > 0)
      parts.push(`The following agent types are no longer available:\n${removed.map((t) => `- ${t}`).join('\n')}`);
    if (a.isInitial && a.showConcurrencyNote)
      parts.push(
        'When you launch multiple agents for independent work, send them in a single message with multiple tool uses so they run concurrently.',
      );
    return parts.length > 0 ? parts.join('\n\n') : undefined;
  },
  mcp_instructions_delta: (a) => {
    const parts: string[] = [];
    const added = texts(a.addedBlocks);
    const removed = texts(a.removedNames);
    if (added.length > 0)
      parts.push(
        `# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n${added.join('\n\n')}`,
      );
    if (removed.length > 0)
      parts.push(
        `The following MCP servers have disconnected. Their instructions above no longer apply:\n${removed.join('\n')}`,
      );
    return parts.length > 0 ? parts.join('\n\n') : undefined;
  },
  skill_listing: (a) =>
    str(a.content) ? `The following skills are available for use with the Skill tool:\n\n${str(a.content)}` : undefined,
  todo_reminder: (a) => {
    const items = (arr(a.content) ?? []).filter(isObject);
    const list = items.map((t, i) => `${i + 1}. [${str(t.status) ?? ''}] ${str(t.content) ?? ''}`).join('\n');
    return list ? `${TODO_REMINDER}\n\nHere are the existing contents of your todo list:\n\n[${list}]` : TODO_REMINDER;
  },
  task_reminder: (a) => {
    const items = (arr(a.content) ?? []).filter(isObject);
    const list = items.map((t) => `#${str(t.id) ?? ''}. [${str(t.status) ?? ''}] ${str(t.subject) ?? ''}`).join('\n');
    return list ? `${TASK_REMINDER}\n\nHere are the existing tasks:\n\n${list}` : TASK_REMINDER;
  },
  date_change: (a) =>
    `The date has changed. Today's date is now ${str(a.newDate) ?? ''}. DO NOT mention this to the user explicitly because they are already aware.`,
  nested_memory: (a) => {
    const c = obj(a.content);
    return `Contents of ${str(c?.path) ?? ''}:\n\n${str(c?.content) ?? ''}`;
  },
  opened_file_in_ide: (a) =>
    `The user opened the file ${str(a.filename) ?? ''} in the IDE. This may or may not be related to the current task.`,
  selected_lines_in_ide: (a) => {
    const c = str(a.content) ?? '';
    const shown = c.length > 2000 ? `${c.slice(0, 2000)}\n... (truncated)` : c;
    return `The user selected the lines ${a.lineStart} to ${a.lineEnd} from ${str(a.filename) ?? ''}:\n${shown}\n\nThis may or may not be related to the current task.`;
  },
  edited_text_file: (a) =>
    `Note: ${str(a.filename) ?? ''} was modified, either by the user or by a linter. This change was intentional, so make sure to take it into account as you proceed (ie. don't revert it unless the user asks you to). Don't tell the user this, since they are already aware. Here are the relevant changes (shown with line numbers):\n${str(a.snippet) ?? ''}`,
  compact_file_reference: (a) =>
    `Note: ${str(a.filename) ?? ''} was read before the last conversation was summarized, but the contents are too large to include. Use Read tool if you need to access it.`,
  plan_file_reference: (a) =>
    `A plan file exists from plan mode at: ${str(a.planFilePath) ?? ''}\n\nPlan contents:\n\n${str(a.planContent) ?? ''}\n\nIf this plan is relevant to the current work and not already complete, continue working on it.`,
  critical_system_reminder: (a) => str(a.content),
  invoked_skills: (a) => {
    const skills = (arr(a.skills) ?? []).filter(isObject);
    if (skills.length === 0) return undefined;
    const body = skills
      .map((s) => `### Skill: ${str(s.name) ?? ''}\nPath: ${str(s.path) ?? ''}\n\n${str(s.content) ?? ''}`)
      .join('\n\n---\n\n');
    return `The following skills were invoked in this session. Continue to follow these guidelines:\n\n${body}`;
  },
  queued_command: (a) => {
    const p = a.prompt;
    const text = Array.isArray(p)
      ? p
          .filter(isObject)
          .filter((b) => b.type === 'text')
          .map((b) => str(b.text) ?? '')
          .join('\n')
      : String(p ?? '');
    return `The user sent a new message while you were working:\n${text}\n\nIMPORTANT: After completing your current task, you MUST address the user's message above. Do not ignore it.`;
  },
  plan_mode_exit: (a) =>
    `## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions.${a.planExists ? ` The plan file is located at ${str(a.planFilePath) ?? ''} if you need to reference it.` : ''}`,
  auto_mode_exit: () =>
    '## Exited Auto Mode\n\nYou have exited auto mode. The user may now want to interact more directly. You should ask clarifying questions when the approach is ambiguous rather than making assumptions.',
  ultrathink_effort: () =>
    'The user included the keyword "ultrathink", requesting deeper reasoning on this turn. Reason as thoroughly as the task warrants.',
  task_status: (a) => {
    const id = str(a.taskId) ?? '';
    const description = str(a.description) ?? '';
    if (a.status === 'killed') return `Task "${description}" (${id}) was stopped by the user.`;
    const file = str(a.outputFilePath);
    if (a.status === 'running') {
      const out = [`Background agent "${description}" (${id}) is still running.`];
      if (str(a.deltaSummary)) out.push(`Progress: ${str(a.deltaSummary)}`);
      out.push(
        file
          ? `Do NOT spawn a duplicate. You will be notified when it completes. You can read partial output at ${file} or send it a message with SendMessage.`
          : 'Do NOT spawn a duplicate. You will be notified when it completes. You can check its progress with the TaskOutput tool or send it a message with SendMessage.',
      );
      return out.join(' ');
    }
    const parts = [`Task ${id}`, `(type: ${str(a.taskType) ?? ''})`, `(status: ${str(a.status) ?? ''})`];
    parts.push(`(description: ${description})`);
    if (str(a.deltaSummary)) parts.push(`Delta: ${str(a.deltaSummary)}`);
    parts.push(
      file
        ? `Read the output file to retrieve the result: ${file}`
        : 'You can check its output using the TaskOutput tool.',
    );
    return parts.join(' ');
  },
  token_usage: (a) => `Token usage: ${a.used}/${a.total}; ${a.remaining} remaining`,
  budget_usd: (a) => `USD budget: $${a.used}/$${a.total}; $${a.remaining} remaining`,
  file: (a) => {
    const c = obj(a.content);
    const file = obj(c?.file);
    if (c?.type !== 'text' || !file) return undefined;
    // Two meta messages: the Read call and its result (as the Read tool maps it); joined here as one text.
    return `Called the Read tool with the following input: ${JSON.stringify({ file_path: str(a.filename) ?? '' })}\n\n${str(file.content) ?? ''}`;
  },
};

/** What reached the model for one attachment object (the `attachment` field of an `attachment` line). */
export function renderAttachment(a: JsonObject): RenderedAttachment {
  const type = str(a.type) ?? '';
  if (NOT_SENT.has(type)) return { sent: false, reason: 'not sent' };
  if (NOT_RECONSTRUCTED.has(type)) return { sent: false, reason: 'not reconstructed' };
  const render = Object.hasOwn(RENDER, type) ? RENDER[type] : undefined;
  if (!render) return { sent: false, reason: 'unknown type' };
  const text = render(a);
  return text === undefined || text === '' ? { sent: false, reason: 'not sent' } : { sent: true, text: reminder(text) };
}
