// SWE-agent trajectories (`.traj`, one JSON document; formats.md §4) in every shape SWE-agent writes: a run
// ({history, trajectory, info, replay_config}), a demonstration ({history} only), a retry-loop run ({attempts}, with
// or without the chosen attempt's fields beside it) and a bare {trajectory, info}. `history` is OpenAI chat shaped —
// tool calls (Python-repr strings in some demos: python-literal.ts) or text actions (swe-agent-actions.ts) — and
// becomes a thread with one request per assistant message; trajectory steps past the end of the history (the final
// `submit` of a function-calling run) are appended. `info.model_stats` are run totals, so they go to meta.
// mini-swe-agent's `*.traj.json` (`messages` with per-call usage) is read by mini-swe-agent.ts.
import { arr, isObject, type JsonObject, num, str, tryParseJson } from '../lib/json.ts';
import type { Block, Message, ParseIssue, Thread, ThreadKind, TranscriptMeta } from '../model/transcript.ts';
import { isMiniTrajectory, parseMiniTrajectory, runExtra } from './mini-swe-agent.ts';
import { openaiMessages } from './openai-messages.ts';
import { parsePythonLiteral } from './python-literal.ts';
import { knownCommands, withTextActions } from './swe-agent-actions.ts';
import { makeTranscript, newThread } from './thread.ts';
import type { FormatParser } from './types.ts';

const historyItem = (x: unknown) =>
  isObject(x) && typeof x.role === 'string' && ('message_type' in x || 'agent' in x || 'action' in x);
const step = (x: unknown) => isObject(x) && 'action' in x && 'observation' in x;

/** A run, a demonstration, a bare trajectory, or a retry loop's attempts. */
function isTrajectory(d: unknown): boolean {
  if (!isObject(d)) return false;
  const history = arr(d.history);
  const steps = arr(d.trajectory);
  if (history && steps && isObject(d.info)) return true;
  if (history?.some(historyItem)) return true;
  if (steps?.some(step) && isObject(d.info)) return true;
  return (
    arr(d.attempts)?.some((a) => isObject(a) && (Array.isArray(a.history) || Array.isArray(a.trajectory))) ?? false
  );
}

/** Thinking blocks SWE-agent keeps beside an assistant item (Anthropic models). */
function thinkingBlocks(item: unknown): Block[] {
  const list = isObject(item) ? arr(item.thinking_blocks) : undefined;
  return (list ?? []).filter(isObject).map((b): Block => {
    if (b.type === 'redacted_thinking') return { type: 'redacted_thinking', data: str(b.data) ?? '' };
    const out: Block = { type: 'thinking', thinking: str(b.thinking) ?? '' };
    const sig = str(b.signature);
    if (sig !== undefined) out.signature = sig;
    return out;
  });
}

/**
 * The items of one attempt with their paths: the history, then the trajectory steps it does not cover (each an
 * assistant text action, followed by its observation when a later step saw it). Returns how many steps it took.
 */
function attemptItems(src: JsonObject, at: string, issues: ParseIssue[]) {
  const history = arr(src.history) ?? [];
  const items: unknown[] = [...history];
  const paths = history.map((_, i) => `${at}history[${i}]`);
  const steps = arr(src.trajectory) ?? [];
  const actions = history.filter((h) => isObject(h) && h.role === 'assistant');
  const last = actions.at(-1);
  const lastStep = steps[actions.length - 1];
  const aligned =
    actions.length === 0 || (isObject(last) && isObject(lastStep) && str(last.action) === str(lastStep.action));
  let appended = 0;
  if (steps.length > actions.length && !aligned) {
    issues.push({
      line: 0,
      severity: 'info',
      message: `${at}trajectory: ${steps.length - actions.length} step(s) beyond the history, but its last action differs from the history's; not appended`,
    });
  }
  for (let j = actions.length; aligned && j < steps.length; j++) {
    const s = steps[j];
    if (!isObject(s)) continue;
    items.push({ role: 'assistant', content: s.response, thought: s.thought, action: s.action });
    paths.push(`${at}trajectory[${j}]`);
    if (j < steps.length - 1) {
      items.push({ role: 'user', content: s.observation });
      paths.push(`${at}trajectory[${j}].observation`);
    }
    appended++;
  }
  return { items, paths, history, steps: steps.length, appended };
}

type Built = { thread: Thread; steps: number; appended: number };

/** One attempt (the run itself, or an entry of `attempts`) → a thread. */
function attemptThread(
  src: JsonObject,
  at: string,
  id: string,
  kind: ThreadKind,
  model: string | undefined,
  issues: ParseIssue[],
): Built {
  const { items: raw, paths, history, steps, appended } = attemptItems(src, at, issues);
  const { items, rewritten } = withTextActions(raw, knownCommands(history));
  const thread = newThread(id, kind, kind === 'main' ? undefined : id.replace('-', ' '));
  thread.messages = openaiMessages(items, {
    locate: (i) => ({ line: 0, path: paths[i] }),
    issue: (severity, message, i) => issues.push({ line: 0, severity, message: `${paths[i]}: ${message}` }),
    decodeString: parsePythonLiteral,
  });
  const indexOf = new Map(paths.map((p, i) => [p, i]));
  thread.messages.forEach((m: Message, k) => {
    const i = indexOf.get(m.source.path ?? '') ?? -1;
    if (rewritten.has(i)) m.source.shape = 'text-action';
    const thinking = m.role === 'assistant' ? thinkingBlocks(raw[i]) : [];
    if (thinking.length > 0) m.blocks.unshift(...thinking);
    if (m.role !== 'assistant') return;
    const r: (typeof thread.requests)[number] = { index: 0, thread: id, inputEnd: k, responseEnd: k + 1 };
    if (model !== undefined) r.model = model;
    thread.requests.push(r);
  });
  return { thread, steps, appended };
}

/** `replay_config` is an object, or (SWE-agent 1.x) that object serialised as a JSON string. */
function replayConfig(doc: JsonObject): JsonObject | undefined {
  const rc = doc.replay_config;
  if (isObject(rc)) return rc;
  const parsed = typeof rc === 'string' ? tryParseJson(rc) : undefined;
  return parsed?.ok && isObject(parsed.value) ? parsed.value : undefined;
}

function runMeta(doc: JsonObject, replay: JsonObject | undefined, model: string | undefined): TranscriptMeta {
  const meta: TranscriptMeta = {};
  const info = isObject(doc.info) ? doc.info : {};
  const extra = runExtra(info, [
    ['exit_status', str(info.exit_status)],
    ['swe_agent_version', str(info.swe_agent_version)],
    ['environment', str(doc.environment)],
    ['model', model],
  ]);
  const ps = replay && isObject(replay.problem_statement) ? replay.problem_statement : undefined;
  const title = ps ? str(ps.id) : undefined;
  if (title !== undefined) meta.title = title;
  if (Object.keys(extra).length > 0) meta.extra = extra;
  return meta;
}

/** The attempts besides the run's own fields: all of them, or (when the run is the chosen one) the others. */
function otherAttempts(doc: JsonObject, hasRun: boolean): [JsonObject, number][] {
  const attempts = (arr(doc.attempts) ?? []).map((a, i) => [a, i] as const);
  const info = isObject(doc.info) ? doc.info : {};
  const chosen = num(info.best_attempt_idx) ?? (attempts.length === 1 ? 0 : undefined);
  return attempts.filter((x): x is [JsonObject, number] => isObject(x[0]) && (!hasRun || x[1] !== chosen));
}

export const sweAgentParser: FormatParser = {
  id: 'swe-agent',
  label: 'SWE-agent trajectory',
  sniff: (head) => isTrajectory(head.doc) || isMiniTrajectory(head.doc),
  parse: (input) => {
    const issues: ParseIssue[] = [];
    const doc = input.doc();
    if (!isTrajectory(doc) && isMiniTrajectory(doc)) return parseMiniTrajectory(doc);
    if (!isObject(doc)) {
      issues.push({ line: 0, severity: 'error', message: 'the file is not one JSON object; nothing to load' });
      return makeTranscript('swe-agent', {}, [], issues);
    }
    const replay = replayConfig(doc);
    const agent = replay && isObject(replay.agent) ? replay.agent : undefined;
    const model = agent && isObject(agent.model) ? str(agent.model.name) : undefined;
    const hasRun = Array.isArray(doc.history) || Array.isArray(doc.trajectory);
    if (doc.history !== undefined && !Array.isArray(doc.history))
      issues.push({ line: 0, severity: 'error', message: 'history: not a list' });
    const built: Built[] = [];
    if (hasRun) built.push(attemptThread(doc, '', 'main', 'main', model, issues));
    for (const [a, i] of otherAttempts(doc, hasRun)) {
      const kind = built.length === 0 ? 'main' : 'sidechain';
      built.push(attemptThread(a, `attempts[${i}].`, `attempt-${i + 1}`, kind, model, issues));
    }
    if (!Array.isArray(doc.history) && !doc.attempts)
      issues.push({ line: 0, severity: 'info', message: 'no history: the thread is built from the trajectory steps' });
    if (!Array.isArray(doc.trajectory) && !doc.attempts)
      issues.push({
        line: 0,
        severity: 'info',
        message: 'a demonstration (history only): no trajectory, info or model',
      });
    const meta = runMeta(doc, replay, model);
    // Steps the history already holds are counted, not modelled.
    const unmodelled = built.reduce((n, b) => n + b.steps - b.appended, 0);
    if (unmodelled > 0) meta.skipped = { 'trajectory-step': unmodelled };
    return makeTranscript(
      'swe-agent',
      meta,
      built.map((b) => b.thread),
      issues,
    );
  },
};
