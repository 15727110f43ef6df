// The Tier-1 stub each tool result of a transcript would get (markers.ts tier1Stub), predicted at load so the
// counting pool counts them with the log: a drag that moves results into Tier 1 (a lower trigger, a smaller
// window) then looks their tokens up instead of tokenizing each new stub on the engine's thread. A prediction
// the run does not make (its working history names another call) costs one wasted count, never a wrong one:
// counts are keyed by the text.
import type { ToolUseBlock, Transcript } from '../model/transcript.ts';
import { tier1Stub } from './markers.ts';
import type { RuneCounts } from './rune-counts.ts';

/** One stub per tool result whose call is in its thread (the call's name and input, the result's size). */
export function tier1StubTexts(t: Transcript, runes: RuneCounts): string[] {
  const out: string[] = [];
  for (const th of t.threads) {
    const calls = new Map<string, ToolUseBlock>();
    for (const m of th.messages)
      for (const b of m.blocks) {
        if (b.type === 'tool_use') {
          if (!calls.has(b.id)) calls.set(b.id, b);
          continue;
        }
        if (b.type !== 'tool_result') continue;
        const call = calls.get(b.toolUseId);
        if (call) out.push(tier1Stub(call.name, call.input, runes.block(b)));
      }
  }
  return out;
}
