// Why a line kind counted in `meta.skipped` is not part of the conversation, in words a reader can check against
// Claude Code's own behaviour (2.0–2.1 line types; attachment types are rendered or dropped by
// claude-code-attachments.ts) and the other formats' bookkeeping lines. A kind without a reason is shown bare.

const REASONS: Record<string, string> = {
  'inactive-branch':
    'on a rewound or superseded branch: written, but not in the active conversation (its API responses were billed: the recorded cost counts them apart)',
  'file-history-snapshot': 'file backup for /rewind; never sent to the model',
  'queue-operation': 'bookkeeping of prompts queued while the agent worked',
  'permission-mode': 'the permission mode the session ran in',
  mode: 'the mode the session ran in',
  'last-prompt': 'pointer to the last prompt (used to find the active branch)',
  progress: 'progress of a running tool or hook, for the terminal only',
  'agent-name': 'the name of the session, for the terminal only',
  'custom-title': 'the title the user gave the session',
  'ai-title': 'a title Claude Code generated',
  'worktree-state': 'worktree bookkeeping',
  'system:turn_duration': 'how long a turn took, for the terminal only',
  'system:stop_hook_summary': 'summary of Stop hooks, for the terminal only',
  'system:away_summary': 'recap shown to a user returning to the session; not sent to the model',
  'system:api_error': 'an API error Claude Code showed (the retry is the next request)',
  'system:local_command': 'output of a local slash command, for the terminal',
  'system:informational': 'a notice for the terminal',
  'system:session_start': 'session start marker',
  'user:empty': 'a user line with no content',
  'assistant:empty': 'an assistant line with no content',
};

/** The reason for a skipped kind, if known. */
export function skipReason(kind: string): string | undefined {
  if (Object.hasOwn(REASONS, kind)) return REASONS[kind];
  if (kind.startsWith('attachment:')) {
    if (kind.endsWith('(not reconstructed)'))
      return 'sent to the model, but its text is not rebuilt: its tokens are not counted';
    if (kind.endsWith('(unknown type)')) return 'an attachment type Tierscope does not know: not counted';
    return 'Claude Code sends nothing to the model for this attachment';
  }
  if (kind.startsWith('event_msg:')) return 'a UI event of the Codex CLI; the model saw the response items';
  return undefined;
}
