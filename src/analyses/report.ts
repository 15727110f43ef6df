// The machine-readable report of SPEC §8, built from a parsed transcript (and, once replayed, the
// pipeline results). The CLI prints it with --json; the worker sends parts of it to the UI.
import { runeCount } from '../lib/runes.ts';
import type { ObservedUsage, ParseIssue, Transcript } from '../model/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { type Counts, transcriptCounts } from './counts.ts';
import { indexToolCalls } from './tool-index.ts';

export type ToolResultRow = {
  thread: string;
  toolUseId: string;
  tool: string;
  messageIndex: number;
  chars: number;
  tokens: number;
  isError: boolean;
};

export type RequestRow = {
  thread: string;
  index: number;
  model: string | null;
  inputEnd: number;
  observed: Pick<ObservedUsage, 'input' | 'cacheRead' | 'cacheWrite'> | null;
};

export type BaseReport = {
  format: string;
  parseIssues: Pick<ParseIssue, 'line' | 'message' | 'severity'>[];
  counts: Counts;
  toolResults: ToolResultRow[];
  requests: RequestRow[];
};

/** Per tool result: its tool (from the matching tool_use), size in runes and exact tokens. */
export function toolResultRows(t: Transcript, tok: Tokenizer): ToolResultRow[] {
  const rows: ToolResultRow[] = [];
  for (const th of t.threads) {
    const calls = indexToolCalls(th.messages);
    for (const m of th.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_result') continue;
        const text = resultText(b);
        rows.push({
          thread: th.id,
          toolUseId: b.toolUseId,
          tool: calls.get(b.toolUseId)?.name ?? 'unknown',
          messageIndex: m.index,
          chars: runeCount(text),
          tokens: tok.count(text),
          isError: b.isError,
        });
      }
    }
  }
  return rows;
}

export function requestRows(t: Transcript): RequestRow[] {
  return t.threads.flatMap((th) =>
    th.requests.map((r) => ({
      thread: th.id,
      index: r.index,
      model: r.model ?? null,
      inputEnd: r.inputEnd,
      observed: r.observed
        ? { input: r.observed.input, cacheRead: r.observed.cacheRead, cacheWrite: r.observed.cacheWrite }
        : null,
    })),
  );
}

export function baseReport(t: Transcript, tok: Tokenizer): BaseReport {
  return {
    format: t.format,
    parseIssues: t.parseIssues.map((i) => ({ line: i.line, message: i.message, severity: i.severity })),
    counts: transcriptCounts(t),
    toolResults: toolResultRows(t, tok),
    requests: requestRows(t),
  };
}
