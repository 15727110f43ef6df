// Generate agent-loop transcripts in the DSL: one user task, then turns of `assistant calls tool(s)` →
// `user returns result(s)`. Readable specs for long sessions (37.1 needs 30 turns). Plus transcript
// transformations the stage tests need: retries (second passes), structured results, request logs.
import type { Block, Transcript } from '../../src/model/transcript.ts';
import { transcript } from './dsl.ts';

export type Call = { tool: string; args?: string; result: string; error?: boolean };
/** One turn: one call, or several parallel calls answered in one message. */
export type Turn = Call | Call[];

/** DSL text for a loop; tool ids are `t<turn>` or `t<turn>_<k>` for parallel calls. */
export function loopDsl(turns: readonly Turn[], task = 'Refactor internal/auth/session.go'): string {
  const lines = [`U ${task}`];
  turns.forEach((turn, i) => {
    const calls = Array.isArray(turn) ? turn : [turn];
    const ids = calls.map((_, k) => (calls.length === 1 ? `t${i}` : `t${i}_${k}`));
    lines.push('-');
    calls.forEach((c, k) => {
      lines.push(`A tu(${ids[k]}) ${c.tool} ${c.args ?? ''}`);
    });
    lines.push('-');
    calls.forEach((c, k) => {
      lines.push(`U tr${c.error ? '!' : ''}(${ids[k]}) ${c.result}`);
    });
  });
  lines.push('-', 'A Done.');
  return lines.join('\n');
}

export function loop(turns: readonly Turn[], task?: string): Transcript {
  return transcript(loopDsl(turns, task));
}

/** n identical turns of one tool. */
export function repeat(n: number, call: Call): Call[] {
  return Array.from({ length: n }, () => ({ ...call }));
}

/** The same transcript with every request sent twice (a retry with the identical input): the second pass of
 *  the pipeline over an input it has already processed (idempotence, cache_idempotence). */
export function withRetries(t: Transcript): Transcript {
  return {
    ...t,
    threads: t.threads.map((th) => ({
      ...th,
      requests: th.requests.flatMap((r) => [r, { ...r }]).map((r, i) => ({ ...r, index: i })),
    })),
  };
}

/** The same transcript with the result for `id` replaced by `content` (e.g. a screenshot's [text, image]). */
export function withResult(t: Transcript, id: string, content: string | Block[]): Transcript {
  return {
    ...t,
    threads: t.threads.map((th) => ({
      ...th,
      messages: th.messages.map((m) =>
        m.blocks.some((b) => b.type === 'tool_result' && b.toolUseId === id)
          ? {
              ...m,
              blocks: m.blocks.map((b) => (b.type === 'tool_result' && b.toolUseId === id ? { ...b, content } : b)),
            }
          : m,
      ),
    })),
  };
}

/** A screenshot-like result: a caption and one image. */
export function screenshot(caption = 'page after click'): Block[] {
  return [
    { type: 'text', text: `${caption}: ${'x'.repeat(400)}` },
    { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBORw0KGgo=' } },
  ];
}

/** The same transcript as a request log (claude-trace style): every request carries its exact input as
 *  copies. With `stamp`, the harness writes the request number into the first user message (as some inject
 *  a date or a reminder), so no input extends the previous one and the replay resets on every request. */
export function asRequestLog(t: Transcript, stamp = false): Transcript {
  return {
    ...t,
    threads: t.threads.map((th) => ({
      ...th,
      requests: th.requests.map((r) => {
        const exactInput = structuredClone(th.messages.slice(0, r.inputEnd));
        const first = exactInput[0];
        if (stamp && first) first.blocks = [...first.blocks, { type: 'text', text: `(request ${r.index})` }];
        return { ...r, exactInput };
      }),
    })),
  };
}

/** The same transcript with its last request sent `n` more times with the identical input (passes 2…n+1). */
export function retryLast(t: Transcript, n: number): Transcript {
  return {
    ...t,
    threads: t.threads.map((th) => {
      const last = th.requests.at(-1);
      if (!last) return th;
      const copies = Array.from({ length: n }, (_, i) => ({ ...last, index: last.index + 1 + i }));
      return { ...th, requests: [...th.requests, ...copies] };
    }),
  };
}
