// Every compaction of a run, audited (issue 17, SPEC §5.5 and §8 `compactions`): the agent's own (Claude Code
// compact_boundary + isCompactSummary, Codex `compacted`) and the pipeline's `summarize` alike. For each: the
// ledger of the span it folds, the probes of its summary and of Tierscope's anchored summary of the same span,
// and the re-fetches that followed (compaction-refetch.ts). The agent's side depends only on the transcript and
// is kept per thread in the AuditMemo; the pipeline's per thread replay. Per run only what the reply reads is made:
// the anchored summary (text, tokens, probes) when first read, a pipeline summary's text only when its probes need it.

import { pushAll } from '../lib/arrays.ts';
import { getOrInsert } from '../lib/maps.ts';
import { RoundMap } from '../lib/rounds.ts';
import { firstIndex } from '../lib/search.ts';
import { sameValue } from '../model/carry-over.ts';
import type { Block, Message, Thread, Transcript } from '../model/transcript.ts';
import {
  type Artifact,
  type ArtifactIndex,
  Contributions,
  emptyIndex,
  indexMessage,
  itemLine,
  renderSections,
  sectionTokens,
} from '../pipeline/artifacts.ts';
import { STAGES } from '../pipeline/stages/index.ts';
import type { ThreadReplay } from '../replay/types.ts';
import { blockText } from '../tokens/block-text.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { type AddsNothing, buildLedger, type Ledger, type LedgerParts, todoSites } from './ledger.ts';
import { type Listed, type Probes, probeSummary } from './probes.ts';

type CompactionSource = 'agent' | 'pipeline';

/** How preTokens was known: the boundary recorded it, the last observed prompt before it, or counted. */
type PreTokensBasis = 'recorded' | 'observed-prompt' | 'counted';

/** One compaction without its after-effects (which depend on the run's prices and re-fetches). */
export type AuditedCompaction = {
  /** `<thread>/<source>/<n>`: stable across runs of the same settings. */
  id: string;
  thread: string;
  source: CompactionSource;
  /** The first request that sent the summary; null when no request followed it. */
  request: number | null;
  /** `auto` / `manual` as the agent recorded it; null when the log does not say (and for the pipeline). */
  trigger: string | null;
  /** The summary message (agent) in the thread; null for the pipeline's (it is not a message of the log). */
  messageIndex: number | null;
  line: number | null;
  /** Messages [from, to) the compaction folded, and their first and last request. */
  span: { from: number; to: number; firstRequest: number; lastRequest: number };
  preTokens: number | null;
  preTokensBasis: PreTokensBasis | null;
  /** Counted tokens of the summary and of Tierscope's anchored summary of the same span. */
  summaryTokens: number;
  anchoredTokens: number;
  /** The summary cannot be read (a Codex remote compaction keeps it encrypted, or the log has no text for it): its
   *  probes are empty — what it kept is unknown, not lost. */
  opaque: boolean;
  probes: Probes;
  anchoredProbes: Probes;
};

/** The texts the compaction view shows beside the probes. */
export type CompactionTexts = { summary: string; anchored: string; ledger: Ledger };

/** A compaction's row as the audit keeps it from run to run: its facts and its summary's probes (the anchored
 *  summary's tokens and probes are read from its span's audit, when read: auditedRow). */
export type CompactionFacts = Omit<AuditedCompaction, 'anchoredTokens' | 'anchoredProbes'>;

type Audited = { row: CompactionFacts; span: SpanAudit; texts: CompactionTexts };

/** What an audit reads that is kept in the AuditMemo, not made per run: where the thread's todo lists are, each
 *  message's contribution to an anchored summary, the ledger's parts and which messages add nothing to it, what each
 *  span audited so far holds, the line counts, and (memo-wide, by summary block) the sections a pipeline summary was
 *  rendered from. */
type Known = {
  sites: readonly number[];
  contributions: Contributions;
  ledgerParts: LedgerParts;
  addsNothing: AddsNothing;
  sections: WeakMap<Block, ArtifactIndex>;
  lines: AnchoredLines;
  spans: RoundMap<string, SpanAudit>;
};

/** Tierscope's anchored summary of a span, with its tokens and its probes against the span's ledger. */
type Anchored = { text: string; tokens: number; probes: Probes };

/** What the audit of a span makes that depends on the thread and the span alone: its ledger, and Tierscope's
 *  anchored summary of it, made when first read (a run's reply and the timeline read neither the anchored text, its
 *  tokens nor its probes: the compaction view and the report do, for the compaction they show). */
class SpanAudit {
  private made?: Anchored;
  /** Only what the anchored summary reads (not the whole Known: a kept agent audit would pin its read's span memo). */
  constructor(
    readonly ledger: Ledger,
    private readonly thread: Thread,
    private readonly contributions: Contributions,
    private readonly lines: AnchoredLines,
  ) {}
  get anchored(): Anchored {
    if (!this.made) {
      const { from, to } = this.ledger;
      const index = anchoredIndex(this.thread, from, to, this.contributions);
      const text = anchoredText(from, to, index);
      const tokens = anchoredTokensOf(from, to, index, this.lines);
      this.made = { text, tokens, probes: probeSummary(text, this.ledger) };
    }
    return this.made;
  }
}

/** Pipeline audits of a thread whose spans are kept: the run's and the two before, so a drag back and forth between
 *  two values audits no span twice (a drag makes a few hundred new spans a run, most shared with the run before).
 *  Kept 10,000 a thread instead, they held ~40 MB more live at 20,000 requests. */
const SPAN_ROUNDS = 3;

/** Lines other than items' (titles, header parts, a last line) kept before that memo starts over. */
const MAX_LINES = 50_000;

/** The counts an anchored summary's tokens are summed from (anchoredTokens): each item's line with its "\n", by the
 *  item's identity (Contributions hands out the same items for a message at its request), and every other line by
 *  its text. */
class AnchoredLines {
  /** Bound: the items alive. */
  private readonly items = new WeakMap<Artifact, number>();
  /** Bound: MAX_LINES, then it starts over. */
  private readonly others = new Map<string, number>();
  constructor(private readonly tok: Tokenizer) {}
  other(line: string): number {
    let n = this.others.get(line);
    if (n === undefined) {
      n = this.tok.count(line);
      if (this.others.size >= MAX_LINES) this.others.clear();
      this.others.set(line, n);
    }
    return n;
  }
  item(a: Artifact): number {
    let n = this.items.get(a);
    if (n === undefined) {
      n = this.tok.count(`${itemLine(a)}\n`);
      this.items.set(a, n);
    }
    return n;
  }
}

/** What the audit keeps from one run to the next of one transcript and tokenizer (the engine's RunMemo). */
export class AuditMemo {
  /** Thread → its agent compactions audited (independent of the run). Bound: one list per thread. */
  readonly agent = new WeakMap<Thread, Audited[]>();
  /** Thread replay → its pipeline compactions audited (a reused replay audits the same). Bound: replays alive. */
  readonly pipeline = new WeakMap<ThreadReplay, Audited[]>();
  /** Thread → where its todo lists are (ledger.ts todoSites; independent of the run). Bound: one list per thread. */
  readonly todoSites = new WeakMap<Thread, number[]>();
  /** Message → what it adds to a ledger (ledger.ts; depends on the message alone): a drag audits new spans over
   *  the same messages. Bound: the messages alive. */
  readonly ledgerParts: LedgerParts = new WeakMap();
  /** Thread → its messages known to add nothing to a ledger (ledger.ts AddsNothing). Bound: a byte a message. */
  readonly addsNothing = new WeakMap<Thread, AddsNothing>();
  /** The line counts anchored summaries' tokens are summed from, per tokenizer (AnchoredLines). Bound: one per
   *  tokenizer. */
  readonly anchoredLines = new WeakMap<Tokenizer, AnchoredLines>();
  /** Agent summary message → its audit and the read of the thread it was made in: a followed session's grown
   *  thread audits again only the compactions whose span, requests or todo lists changed (sameAgentAudit).
   *  Bound: the summary messages alive. */
  readonly agentAudits = new WeakMap<Message, { thread: Thread; audited: Audited }>();
  /** Thread → its spans audited (`from:to` → SpanAudit; independent of the run: a pipeline summary of the same span
   *  in another run is probed against the same ledger and anchored summary). Bound: the spans of the thread's last
   *  SPAN_ROUNDS pipeline audits (each a run's). */
  readonly spans = new WeakMap<Thread, RoundMap<string, SpanAudit>>();
  /** Thread → its tasks' typed messages (tasks.ts taskStarts; independent of the run). Bound: one per thread. */
  readonly taskStarts = new WeakMap<Thread, readonly { mi: number; text: string }[]>();

  /** `contributions`: message → what it adds to an anchored summary (artifacts.ts; depends on the message alone).
   *  The run memo passes the pipeline's, which the summarize stage fills for the same messages (one copy, not two).
   *  Bound: the messages alive. */
  constructor(
    readonly contributions: Contributions = new Contributions(),
    /** Pipeline summary block → the merged index its sections render (the pipeline's PipelineMemo.summarySections,
     *  filled by the summarize stage): its item lines are read there before the summary's text is made. */
    readonly sections: WeakMap<Block, ArtifactIndex> = new WeakMap(),
  ) {}
}

/** The request that first sends message `mi` (the first whose input reaches past it); null when none does. */
function requestSending(thread: Thread, mi: number): number | null {
  const reqs = thread.requests;
  const at = firstIndex(reqs.length, (i) => reqs[i].inputEnd > mi);
  return at < reqs.length ? at : null;
}

/** The request whose input ends at or before message `mi` last (the one that produced it); 0 before any. */
function requestOf(thread: Thread, mi: number): number {
  const reqs = thread.requests;
  return Math.max(0, firstIndex(reqs.length, (i) => reqs[i].inputEnd > mi) - 1);
}

function textOf(m: Message): string {
  return m.blocks.map(blockText).join('\n');
}

/** The artifact index the `summarize` stage would build of messages [from, to). */
function anchoredIndex(thread: Thread, from: number, to: number, contributions: Contributions): ArtifactIndex {
  const index = emptyIndex();
  for (let i = from; i < to; i++) {
    const m = thread.messages[i];
    if (!m.compaction) indexMessage(index, contributions.artifacts(contributions.of(m), requestOf(thread, i)));
  }
  return index;
}

const ANCHORED_HEAD = '[Tierscope anchored summary of messages ';

/** Tierscope's anchored summary of messages [from, to): its header and the index's sections. */
function anchoredText(from: number, to: number, index: ArtifactIndex): string {
  return `${ANCHORED_HEAD}${from}–${to - 1}]\n${renderSections(index)}`;
}

/** The tokens of anchoredText without counting it whole: as summary-drafts.ts headTokens and artifacts.ts
 *  sectionTokens argue for the pipeline's summaries (the same header shape and sections), digit runs after " " and
 *  "–" are pieces of their own and the break before each section line is a safe cut, so the count is the sum of the
 *  parts' counts. */
function anchoredTokensOf(from: number, to: number, index: ArtifactIndex, lines: AnchoredLines): number {
  const other = (line: string) => lines.other(line);
  const head = other(ANCHORED_HEAD) + other(String(from)) + other('–') + other(String(to - 1)) + other(']\n');
  return head + sectionTokens(index, other, (a) => lines.item(a));
}

function spanAudit(thread: Thread, span: { from: number; to: number }, known: Known): SpanAudit {
  const key = `${span.from}:${span.to}`;
  let found = known.spans.get(key);
  if (!found) {
    const ledger = buildLedger(thread, span.from, span.to, known.sites, known.ledgerParts, known.addsNothing);
    found = new SpanAudit(ledger, thread, known.contributions, known.lines);
    known.spans.set(key, found);
  }
  return found;
}

type AuditBase = Omit<AuditedCompaction, 'probes' | 'anchoredProbes' | 'summaryTokens' | 'anchoredTokens'>;

/** The texts the compaction view shows: the summary (a pipeline one is made each time it is read, summarize.ts
 *  summaryMessage: the audit keeps the block, not hundreds of KBs of text a run) and the anchored summary (made
 *  when first read). */
class AuditTexts implements CompactionTexts {
  constructor(
    private readonly text: () => string,
    private readonly span: SpanAudit,
  ) {}
  get summary(): string {
    return this.text();
  }
  get anchored(): string {
    return this.span.anchored.text;
  }
  get ledger(): Ledger {
    return this.span.ledger;
  }
}

/** Whether a summary rendering `index`'s sections has a line holding exactly `text` (an item of a section the kind
 *  is drawn from; else the probe reads the text). */
function listedIn(index: ArtifactIndex): Listed {
  return (kind, text) => {
    const lists =
      kind === 'filesModified' || kind === 'filesRead'
        ? [index.filesModified, index.filesRead]
        : kind === 'errors'
          ? [index.errors]
          : Object.values(index);
    for (const list of lists) for (const a of list) if (a.text === text) return true;
    return false;
  };
}

/** A compaction audited: its summary probed now (its text made only when a probe needs it: `sections`, the index a
 *  pipeline summary renders, lists most items verbatim); Tierscope's anchored summary of its span when first read. */
function audit(
  base: AuditBase,
  text: () => string,
  thread: Thread,
  known: Known,
  summaryTokens: number,
  sections?: ArtifactIndex,
): Audited {
  const span = spanAudit(thread, base.span, known);
  const { ledger } = span;
  const probes = probeSummary(text, base.opaque ? emptyLedger(ledger) : ledger, sections && listedIn(sections));
  return { row: { ...base, summaryTokens, probes }, span, texts: new AuditTexts(text, span) };
}

/** A run's row of an audited compaction with `extra` (its after-effects): the anchored summary's tokens and probes
 *  are getters (made when first read: the reply and the timeline read neither). Fields in the report's order. */
export function auditedRow<T>(a: Audited, refetchesAfter: T): AuditedCompaction & { refetchesAfter: T } {
  const r = a.row;
  const s = a.span;
  return {
    id: r.id,
    thread: r.thread,
    source: r.source,
    request: r.request,
    trigger: r.trigger,
    messageIndex: r.messageIndex,
    line: r.line,
    span: r.span,
    preTokens: r.preTokens,
    preTokensBasis: r.preTokensBasis,
    opaque: r.opaque,
    summaryTokens: r.summaryTokens,
    get anchoredTokens() {
      return s.anchored.tokens;
    },
    probes: r.probes,
    get anchoredProbes() {
      return s.anchored.probes;
    },
    refetchesAfter,
  };
}

/** A ledger with no items (an opaque summary is probed against nothing). */
function emptyLedger(l: Ledger): Ledger {
  return {
    ...l,
    filesModified: [],
    filesRead: [],
    commands: [],
    errors: [],
    identifiers: [],
    todos: [],
    instructions: [],
  };
}

/** The agent's compactions of a thread: each summary against the messages since the previous one. */
/** Whether `was` (an audit of the same summary message in an earlier read of the thread) holds in `thread` with
 *  `base`: the same row fields, the same messages up to the summary (its span, and the todo lists before it, which
 *  the ledger reads), and the same request for each message of the span (the anchored summary tags them). */
function sameAgentAudit(
  was: { thread: Thread; audited: Audited },
  thread: Thread,
  base: Omit<AuditedCompaction, 'probes' | 'anchoredProbes' | 'summaryTokens' | 'anchoredTokens'>,
): boolean {
  const row = was.audited.row as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(base)) if (!sameValue(v, row[k])) return false;
  const p = was.thread;
  const at = base.messageIndex;
  if (at === null) return false;
  for (let i = 0; i <= at; i++) if (p.messages[i] !== thread.messages[i]) return false;
  for (let i = base.span.from; i < base.span.to; i++) if (requestOf(p, i) !== requestOf(thread, i)) return false;
  return true;
}

function agentCompactions(
  thread: Thread,
  tok: Tokenizer,
  known: Known,
  kept?: WeakMap<Message, { thread: Thread; audited: Audited }>,
): Audited[] {
  const out: Audited[] = [];
  let from = 0;
  for (const m of thread.messages) {
    if (m.compaction !== 'summary') continue;
    const before = requestOf(thread, m.index);
    const rec = m.compactedFrom?.preTokens;
    let preTokens: number | null = rec ?? null;
    let basis: PreTokensBasis | null = rec !== undefined ? 'recorded' : null;
    if (preTokens === null) {
      // The last observed prompt before the summary: what the context held when the agent compacted.
      for (let r = thread.requests.length - 1; r >= 0; r--) {
        const q = thread.requests[r];
        if (q.inputEnd > m.index || !q.observed) continue;
        preTokens = q.observed.input + q.observed.cacheRead + q.observed.cacheWrite;
        basis = 'observed-prompt';
        break;
      }
    }
    const text = textOf(m);
    const base = {
      id: `${thread.id}/agent/${out.length}`,
      thread: thread.id,
      source: 'agent' as const,
      request: requestSending(thread, m.index),
      trigger: m.compactedFrom?.trigger ?? null,
      messageIndex: m.index,
      line: m.compactedFrom?.line ?? m.source.line,
      span: { from, to: m.index, firstRequest: requestOf(thread, from), lastRequest: before },
      preTokens,
      preTokensBasis: basis,
      opaque: m.blocks.some((b) => b.type === 'other' && b.kind === 'compaction') || text.trim() === '',
    };
    const was = kept?.get(m);
    // A kept audit gets a new row object: what is keyed on the row (the re-fetches after it) depends on the
    // messages after the summary, which a growth appends to.
    const audited =
      was && sameAgentAudit(was, thread, base)
        ? { ...was.audited, row: { ...was.audited.row } }
        : audit(base, () => text, thread, known, tok.count(text));
    kept?.set(m, { thread, audited });
    out.push(audited);
    from = m.index + 1;
  }
  return out;
}

const SUMMARIZE = STAGES.findIndex((s) => s.id === 'summarize');

/** The pipeline's summaries in a thread's replay: each against the messages it newly folded. */
function pipelineCompactions(thread: Thread, tr: ThreadReplay, known: Known): Audited[] {
  const out: Audited[] = [];
  known.spans.nextRound();
  const spans = new Map<number, { from: number; to: number }>();
  tr.folded.forEach((r, mi) => {
    if (r === undefined) return;
    const s = spans.get(r);
    if (s) {
      s.from = Math.min(s.from, mi);
      s.to = Math.max(s.to, mi + 1);
    } else spans.set(r, { from: mi, to: mi + 1 });
  });
  // Only the requests that folded messages can audit a summary: their events, in request order (not every event
  // of every request of the thread).
  const reqs = tr.requests;
  for (const r of [...spans.keys()].sort((a, b) => a - b)) {
    const q = reqs[firstIndex(reqs.length, (i) => reqs[i].index >= r)];
    if (q?.index !== r) continue;
    for (const e of q.events) {
      if (e.stage !== 'summarize' || e.action !== 'summarize') continue;
      const span = spans.get(q.index);
      const block = e.after;
      if (!span || !block) continue;
      out.push(
        audit(
          {
            id: `${thread.id}/pipeline/${out.length}`,
            thread: thread.id,
            source: 'pipeline',
            request: q.index,
            trigger: null,
            messageIndex: null,
            line: null,
            span: { ...span, firstRequest: requestOf(thread, span.from), lastRequest: requestOf(thread, span.to - 1) },
            preTokens: SUMMARIZE > 0 ? (q.stageTokens[SUMMARIZE - 1] ?? null) : null,
            preTokensBasis: 'counted',
            opaque: false,
          },
          () => blockText(block),
          thread,
          known,
          e.tokensAfter, // the summary's count, made by the stage from its lines
          known.sections.get(block),
        ),
      );
    }
  }
  return out;
}

const newSpans = () => new RoundMap<string, SpanAudit>(SPAN_ROUNDS);

/** Every compaction of every thread (agent ones first in each thread, then the pipeline's), with its texts. */
export function auditCompactions(
  t: Transcript,
  tok: Tokenizer,
  replay: readonly ThreadReplay[] | undefined,
  memo: AuditMemo,
): Audited[] {
  const out: Audited[] = [];
  for (const [ti, thread] of t.threads.entries()) {
    const known: Known = {
      sites: getOrInsert(memo.todoSites, thread, () => todoSites(thread)),
      contributions: memo.contributions,
      ledgerParts: memo.ledgerParts,
      addsNothing: getOrInsert(memo.addsNothing, thread, () => new Uint8Array(thread.messages.length)),
      sections: memo.sections,
      lines: getOrInsert(memo.anchoredLines, tok, () => new AnchoredLines(tok)),
      spans: getOrInsert(memo.spans, thread, newSpans),
    };
    let agent = memo.agent.get(thread);
    if (!agent) {
      agent = agentCompactions(thread, tok, known, memo.agentAudits);
      memo.agent.set(thread, agent);
    }
    pushAll(out, agent);
    const tr = replay?.[ti];
    if (!tr) continue;
    let pipe = memo.pipeline.get(tr);
    if (!pipe) {
      pipe = pipelineCompactions(thread, tr, known);
      memo.pipeline.set(tr, pipe);
    }
    pushAll(out, pipe);
  }
  return out;
}
