// The normalized transcript model (SPEC §1.2): one shape for every input format.
// Parsers produce it; tokens, pipeline, replay and analyses read nothing else. Plain data only,
// structured-cloneable, so it can cross the worker boundary and round-trip through a bundle.
import type { EpochMs, LineNumber, MessageIndex, RequestIndex, Tokens } from './units.ts';

export type Role = 'system' | 'user' | 'assistant';

type TextBlock = { type: 'text'; text: string };
type ThinkingBlock = { type: 'thinking'; thinking: string; signature?: string };
type RedactedThinkingBlock = { type: 'redacted_thinking'; data: string };
/** An image; `source` keeps the provider's original source object (base64 data or URL). */
export type ImageBlock = { type: 'image'; mediaType?: string; source?: unknown };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ToolResultBlock = {
  type: 'tool_result';
  toolUseId: string;
  content: string | Block[];
  isError: boolean;
};
type ServerToolUseBlock = { type: 'server_tool_use'; id: string; name: string; input: unknown };
/** Anything else (documents, server tool results, provider-specific items): kept verbatim. */
type OtherBlock = { type: 'other'; kind: string; raw: unknown };

export type Block =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ServerToolUseBlock
  | OtherBlock;

/** How a message looked in its source format, so provider-specific pairing rules can be checked. */
type SourceShape =
  | 'native' // Anthropic-style content blocks (Claude Code, claude-trace, anthropic-request)
  | 'openai-tool' // one or more OpenAI `role:"tool"` messages merged into one user message of tool_result blocks
  | 'openai-message' // an OpenAI chat message (assistant tool_calls become tool_use blocks)
  | 'responses-item' // Codex / OpenAI Responses items merged into a message
  | 'text-action'; // SWE-agent text action (no function calling): tool_use derived from `action`, or its observation

export type MessageSource = {
  /** 1-based line of the source file where this message starts (0 when not line-based). */
  line: LineNumber;
  /** Stable id from the source (uuid, message id, item id), when there is one. */
  uuid?: string;
  /** Extra source lines merged into this message (split assistant responses, parallel tool messages). */
  lines?: LineNumber[];
  shape?: SourceShape;
  /** Which file of a multi-file input the message came from (sub-agent files), when not the main file. */
  file?: string;
  /** For whole-document formats (Inspect, SWE-agent): JSON path of the item inside the document. */
  path?: string;
};

export type Message = {
  index: MessageIndex;
  role: Role;
  blocks: Block[];
  source: MessageSource;
  time?: EpochMs;
  model?: string;
  /** Set on messages the agent itself produced when compacting: its summary, or a boundary marker. */
  compaction?: 'summary' | 'boundary';
  /** On an agent's compaction summary: what its boundary recorded (Claude Code `compactMetadata`: `auto` or
   *  `manual`, the prompt tokens before compacting) and the boundary's source line. */
  compactedFrom?: CompactedFrom;
  /** Injected, not typed by the user (slash-command expansion, caveats, reminders). */
  meta?: boolean;
  /** A tool result the harness synthesised (interrupted run, repair) rather than a real tool output. */
  synthetic?: boolean;
};

export type CompactedFrom = { trigger?: string; preTokens?: Tokens; line?: LineNumber };

export type ToolDef = { name: string; description?: string; inputSchema?: unknown };

export type ObservedUsage = {
  /** Uncached input tokens (Anthropic semantics; for OpenAI-style logs: prompt minus cached). */
  input: Tokens;
  cacheRead: Tokens;
  cacheWrite: Tokens;
  cacheWrite1h?: Tokens;
  output: Tokens;
};

export type Request = {
  index: RequestIndex;
  thread: string;
  /** Messages [0, inputEnd) of the thread are this request's input. */
  inputEnd: MessageIndex;
  /** Messages [inputEnd, responseEnd) are this request's response (the assistant message(s) it produced). */
  responseEnd?: MessageIndex;
  time?: EpochMs;
  /** Time the response finished (for TTL gaps), when known. */
  responseTime?: EpochMs;
  model?: string;
  observed?: ObservedUsage;
  /** Of the observed output, the reasoning tokens the log reports (Codex `reasoning_output_tokens`), when it does. */
  reasoningOutput?: Tokens;
  /** Request logs carry the exact input the model saw. */
  exactInput?: Message[];
  /** Exact static prefix of this request, when the log has it (request logs). */
  exactPrefix?: ThreadPrefix;
  /** Set on the first request after the agent's own compaction. */
  boundary?: 'agent-compaction';
  /** Source line of the request (request logs) or of the response's first line. */
  line?: LineNumber;
  /** Provider request id, when known (`requestId`, `request-id` header, response id). */
  requestId?: string;
  /** Why the provider says the cache lookup missed (Anthropic `message.diagnostics.cache_miss_reason`); null when
   *  it reported `"diagnostics": null` (no miss); absent when the log says nothing. */
  cacheMiss?: ReportedCacheMiss | null;
};

/** A cache miss as the provider reported it: `messages_changed`, `system_changed`, `tools_changed`,
 *  `model_changed`, `previous_message_not_found`, `unavailable` …, and the input tokens it missed. */
export type ReportedCacheMiss = { type: string; missedTokens?: Tokens };

export type ThreadPrefix = { system?: Block[]; tools?: ToolDef[] };

/**
 * An API response that was billed but is none of the thread's requests: on a branch the user rewound
 * (`abandoned-branch`: Claude Code keeps those lines, off the active branch), or a model call the log records
 * only by its usage (`no-request`: Codex's compaction call). Recorded cost counts it once, shown apart.
 */
export type BilledResponse = {
  why: 'abandoned-branch' | 'no-request';
  usage: ObservedUsage;
  /** Source line holding the usage that was billed (1-based), and its file when not the main one. */
  line: LineNumber;
  file?: string;
  time?: EpochMs;
  model?: string;
  requestId?: string;
};

export type ThreadKind = 'main' | 'sidechain' | 'side-call';

/** Usage totals as the log itself sums them (Codex `token_count.info.total_token_usage`): prompt tokens (cached
 *  included), of them cached, and output. */
export type UsageTotals = { prompt: Tokens; cached: Tokens; output: Tokens };

/** What a log's own running totals say of a thread: the last total it wrote and, for a fork, the total it
 *  inherited from its parent; the thread's billed responses must add up to the difference (the self-check). */
type LogTotals = { final: UsageTotals; inherited?: UsageTotals; line: LineNumber };

/**
 * A thread forked from another one (Codex `spawn_agent` with `fork_context`, or a fork of a session): it starts with
 * the parent's history replayed, which is its context but none of its own requests.
 */
type ForkInfo = {
  /** The thread it was forked from (`forked_from_id`) or spawned by (`thread_spawn.parent_thread_id`). */
  from: string;
  nickname?: string;
  role?: string;
  depth?: number;
  /** The parent's spawn call this fork answers (the call id of the fork's own function_call_output). */
  spawnCallId?: string;
  /** Model calls of the replayed history (the parent's, billed there): left out of this thread's requests. */
  inheritedRequests: number;
  /** Messages [0, inheritedEnd) are the replayed history. */
  inheritedEnd: MessageIndex;
};

export type Thread = {
  id: string;
  kind: ThreadKind;
  /** Human label (sub-agent description, side-call purpose); the id when none. */
  title?: string;
  messages: Message[];
  requests: Request[];
  prefix: ThreadPrefix;
  /** For sidechains: the tool_use id (in the main thread) that spawned it, when known. */
  parentToolUseId?: string;
  /** Billed responses that are none of `requests` (rewound branches, usage-only calls), in log order. */
  billedApart?: BilledResponse[];
  /** The log's own running usage totals for this thread, when it writes them (Codex). */
  logTotals?: LogTotals;
  /** Set when the thread is a fork of another (its inherited history is context, not its requests). */
  fork?: ForkInfo;
  /** Source file of a thread read from a companion file (a Codex child rollout). */
  file?: string;
};

export type IssueSeverity = 'error' | 'warning' | 'info';

export type ParseIssue = {
  line: LineNumber;
  column?: number;
  severity: IssueSeverity;
  message: string;
  /** Byte offset in the file (UTF-8 decoding errors, huge lines). */
  byteOffset?: number;
  file?: string;
};

export type FormatId =
  | 'claude-code'
  | 'claude-trace'
  | 'anthropic-request'
  | 'openai-chat'
  | 'codex'
  | 'inspect'
  | 'swe-agent'
  | 'gemini-cli'
  | 'opencode'
  | 'cline'
  | 'otel-genai'
  | 'atif'
  | 'tierscope';

export type TranscriptMeta = {
  /** File name the transcript was loaded from (a hint only). */
  fileName?: string;
  title?: string;
  sessionId?: string;
  /** Producer version (Claude Code version, Codex cli_version, Inspect log version …). */
  version?: string;
  /** Lines (or items) the parser saw but does not model, by kind: e.g. `{ "file-history-snapshot": 3 }`. */
  skipped?: Record<string, number>;
  /** The format the transcript was originally parsed from (kept when re-imported from a bundle). */
  originalFormat?: FormatId;
  /** Anything else format-specific worth showing. */
  extra?: Record<string, string | number | boolean>;
  /** Companion files the parser attached as threads (Codex child rollouts, Claude Code sub-agent files): a folder
   *  scan lists them under this session, not as sessions of their own. */
  attached?: string[];
  /** The model a log that names none is priced at, and why (Codex: the default of its CLI version). */
  assumedModel?: { model: string; why: string };
};

export type Transcript = {
  format: FormatId;
  meta: TranscriptMeta;
  threads: Thread[];
  parseIssues: ParseIssue[];
};
