// What a provider counts in a request that the log's text does not show, per request, from each provider's own
// rules (issue 13: "what the model saw"). Each rule names its evidence:
// - Wire framing: every tool_use / tool_result block costs tokens beyond its text (the XML-like wrapper the model
//   reads). Measured on the claude-trace fixture, whose exact requests are known: least squares over its 13
//   main-thread requests gives 31–36 tokens per block at the fitted ratio 1.10–1.12 (residuals ≤ 98 tokens).
// - Thinking: every earlier thinking block counts in Claude Code's requests. Anthropic's docs say models before
//   Claude Opus 4.5 drop earlier turns' thinking, but the real Sonnet 4.5 sessions (Claude Code 2.0.37, 2.0.42)
//   grow at each new prompt instead of shrinking by those blocks, and counting them fits their usage better
//   (within 3%: 89% → 95% and 94% → 95% of requests); the measurement wins. The logs hold a summary or nothing
//   of a block's text (Claude Code 2.1 writes empty thinking), while the response's output count holds its
//   full size: the difference is counted as hidden.
// - Codex reasoning items: sent back (encrypted) with the next request; the rollout holds a summary. Counting
//   the response's output beyond its text as hidden cuts the unexplained growth per step (median absolute
//   residual) from 118 to 39 tokens (moonmind, 0.57), 44 to 31 (neurodata, 0.42) and 25 to 17 (parkinglot).
//   They stay for their own turn only: at each of 19 new user prompts in those rollouts the prompt was smaller by
//   0.84–1.33× the reasoning tokens the previous turn reported, so a Codex request counts its turn's reasoning
//   (hidden and summary text) alone; the unlogged offset then holds across turns (parkinglot 3.4–4.7k over 134k
//   tokens, not 3.4k to −19k) and the worst estimate miss falls from +13.7% to +1.7% (moonmind +35% to +5%).
//   Codex's instructions (`base_instructions`, when the rollout has them) are counted as part of the prefix; its
//   tool schemas are not in the log and are inferred with the rest of the offset (calibration.ts).
// - Tool-schema loads: a ToolSearch result of `tool_reference` blocks makes the API add those tools' schemas,
//   which the log does not hold; the request after it starts a new calibration segment.
import type { Block, Message } from '../model/transcript.ts';

/** Tokens of wire framing per tool_use or tool_result block (Anthropic-shaped requests; see above). */
export const ANTHROPIC_FRAMING_PER_BLOCK = 33;

export const isThinking = (b: Block) => b.type === 'thinking' || b.type === 'redacted_thinking';
export const isToolBlock = (b: Block) =>
  b.type === 'tool_use' || b.type === 'tool_result' || b.type === 'server_tool_use';

/** A tool result that loads tool definitions by reference (Claude Code's ToolSearch returns `tool_reference`
 *  blocks; the API expands them into the tools' schemas, which the log does not hold). */
export function loadsToolSchemas(m: Message): boolean {
  return m.blocks.some(
    (b) =>
      b.type === 'tool_result' &&
      typeof b.content !== 'string' &&
      b.content.some((x) => x.type === 'other' && x.kind === 'tool_reference'),
  );
}
