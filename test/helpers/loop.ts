// Generate agent-loop transcripts in the DSL: one user task, then turns of `assistant calls tool(s)` →
// `user returns result(s)`. Readable specs for long sessions (37.1 needs 30 turns).
import type { Transcript } from '../../src/model/transcript.ts';
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
