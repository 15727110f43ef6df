// A session's title, as the sessions table, `scan` and the app's header show it: the log's own title (a Claude
// Code `summary`/`ai-title`/custom title, an Inspect task), else what the user first typed — with the context
// harnesses inject around it skipped (IDE state, environment, AGENTS.md instructions, reminders, command
// caveats) and command wrappers read for the command and its arguments (`/init`, a spec-kit "User Input").
import type { Message, Thread, Transcript } from '../model/transcript.ts';

const TITLE_MAX = 200;

/** One line of at most TITLE_MAX characters. */
function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1)}…` : flat;
}

/** Context a harness wraps around or before a prompt: never what the user typed. */
const CONTEXT_TAGS =
  /<(ide_[a-z_]+|system-reminder|environment_context|user_instructions|INSTRUCTIONS|local-command-stdout|local-command-stderr|command-message)>[\s\S]*?<\/\1>/g;
/** Whole blocks that are injected context (Codex's IDE header without a request, AGENTS.md, Claude Code caveats). */
const CONTEXT_BLOCK =
  /^\s*(# AGENTS\.md instructions for |# Context from my IDE setup:|Caveat: The messages below were generated)/;
/** Codex's IDE extension puts the request under this heading after the context. */
const IDE_REQUEST = /## My request for Codex:\s*([\s\S]*)$/;
/** A command template (spec-kit and the like) quoting what the user typed after the command. */
const USER_INPUT = /(?:^|\n)## User Input\s*\n+```[a-z]*\n([\s\S]*?)\n```/;

/** Text blocks of a JSON value (a prompt pasted or logged as content blocks). */
function jsonText(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) jsonText(x, out);
  else if (v && typeof v === 'object' && 'text' in v) jsonText((v as { text: unknown }).text, out);
}

/** What the user typed in a text block, or '' when it is all injected context. */
export function promptTitle(text: string): string {
  if (CONTEXT_BLOCK.test(text)) {
    const req = IDE_REQUEST.exec(text);
    return req ? promptTitle(req[1]) : '';
  }
  const input = USER_INPUT.exec(text);
  if (input) return oneLine(input[1]);
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1].trim();
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1].trim();
  if (name) return oneLine(`${name.startsWith('/') ? name : `/${name}`} ${args ?? ''}`);
  let t = oneLine(text.replace(CONTEXT_TAGS, ' ').replace(/<\/?[a-z][a-z0-9_-]*>/gi, ' '));
  if (/^[[{]/.test(t)) {
    try {
      const parts: string[] = [];
      jsonText(JSON.parse(text), parts);
      t = parts.map(promptTitle).find((p) => p !== '') ?? t;
    } catch {
      // Not JSON after all: the text as it is.
    }
  }
  return t;
}

function typed(m: Message): string | null {
  if (m.role !== 'user' || m.meta || m.compaction) return null;
  for (const b of m.blocks) {
    if (b.type !== 'text') continue;
    const title = promptTitle(b.text);
    if (title !== '') return title;
  }
  return null;
}

/** The first thing the user typed in a thread (injected text and tool results skipped). */
function firstPrompt(thread: Thread | undefined): string | null {
  for (const m of thread?.messages ?? []) {
    const t = typed(m);
    if (t !== null) return t;
  }
  return null;
}

/** The session's title: the log's own, else the main thread's first prompt; null when it has neither. */
export function sessionTitle(t: Transcript): string | null {
  if (t.meta.title?.trim()) return oneLine(t.meta.title);
  return firstPrompt(t.threads.find((th) => th.kind === 'main') ?? t.threads[0]);
}
